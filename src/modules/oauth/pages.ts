import { Eta } from 'eta';
import { SCOPES } from './scopes.js';

export type PageLanguage = 'ko' | 'en';

const TEXT = {
  ko: {
    signInTitle: '로그인',
    signInLead: (app: string) => `${app}에서 계정 사용을 요청했습니다. 계속하려면 로그인하세요.`,
    email: '이메일',
    password: '비밀번호',
    signIn: '로그인',
    consentTitle: '권한 요청',
    consentLead: (app: string) => `${app}에서 다음 권한을 요청합니다.`,
    identifiedBy: (url: string) => `이 앱의 정보는 ${url} 에서 왔습니다`,
    registeredItself: (date: string, from: string | null, where: string) =>
      `이 앱은 ${date}에 ${from === null ? '' : `${from} 주소에서 `}스스로 등록했으며 아무도 검토하지 않았습니다. 결정한 뒤에는 ${where}(으)로 돌아갑니다.`,
    signedInAs: (name: string) => `${name} 님으로 로그인됨`,
    allow: '허용',
    deny: '거부',
    homepage: '홈페이지',
    privacy: '개인정보 처리방침',
    errorTitle: '요청을 처리할 수 없습니다',
    badCredentials: '이메일 또는 비밀번호가 올바르지 않습니다.',
    tooMany: '로그인 시도가 너무 많습니다. 잠시 후 다시 시도하세요.',
    expired: '양식이 만료되었습니다. 다시 시도하세요.',
    confirmFirst: (email: string) =>
      `${email} 주소를 아직 확인하지 않았습니다. 가입할 때 보내 드린 메일의 링크를 연 뒤에 앱에 권한을 줄 수 있습니다.`,
  },
  en: {
    signInTitle: 'Sign in',
    signInLead: (app: string) => `${app} asks to use your account. Sign in to continue.`,
    email: 'E-mail',
    password: 'Password',
    signIn: 'Sign in',
    consentTitle: 'Permission request',
    consentLead: (app: string) => `${app} asks for these permissions:`,
    identifiedBy: (url: string) => `This app describes itself at ${url}`,
    registeredItself: (date: string, from: string | null, where: string) =>
      `This app registered itself on ${date}${from === null ? '' : ` from the address ${from}`}; nobody has reviewed it. After you decide, you go back to ${where}.`,
    signedInAs: (name: string) => `Signed in as ${name}`,
    allow: 'Allow',
    deny: 'Deny',
    homepage: 'Homepage',
    privacy: 'Privacy policy',
    errorTitle: 'The request cannot be completed',
    badCredentials: 'The e-mail or password is incorrect.',
    tooMany: 'Too many sign-in attempts. Wait a while and try again.',
    expired: 'The form expired. Please try again.',
    confirmFirst: (email: string) =>
      `${email} is not confirmed yet. Open the link in the mail we sent when you signed up; then you can give apps access.`,
  },
};

export const pageText = (lang: PageLanguage) => TEXT[lang];

/** The pages' templates (views/oauth/, Eta, output escaped); the same folder from src/ and from dist/. */
const eta = new Eta({
  views: new URL('../../../views/oauth/', import.meta.url).pathname,
  cache: true,
  autoEscape: true,
});

export function loginPage(p: {
  lang: PageLanguage;
  clientName: string;
  csrf: string;
  authorizeQuery: string;
  email?: string;
  error?: string;
}): string {
  const t = pageText(p.lang);
  return eta.render('./login', { ...p, t, title: t.signInTitle });
}

/** What an app tells the users it asks (the developer console sets it); a client without an app shows its own name. */
export interface AppProfile {
  name: string;
  description: string;
  homepageUrl: string | null;
  privacyUrl: string | null;
}

export function consentPage(p: {
  lang: PageLanguage;
  clientName: string;
  app: AppProfile | null;
  userName: string;
  scopes: string[];
  csrf: string;
  authorizeQuery: string;
}): string {
  const t = pageText(p.lang);
  const links = p.app
    ? [
        { url: p.app.homepageUrl, label: t.homepage },
        { url: p.app.privacyUrl, label: t.privacy },
      ].filter((link) => link.url)
    : [];
  return eta.render('./consent', {
    ...p,
    t,
    title: t.consentTitle,
    appName: p.app?.name || p.clientName,
    description: p.app?.description ?? '',
    links,
    scopes: p.scopes.map((scope) => ({ scope, label: SCOPES[scope]?.[p.lang] ?? scope })),
  });
}

export function errorPage(lang: PageLanguage, message: string): string {
  return eta.render('./error', { lang, message, title: pageText(lang).errorTitle });
}

export const PAGE_CSS = `body{font-family:system-ui,-apple-system,"Apple SD Gothic Neo","Noto Sans KR",sans-serif;background:#f4f5f7;color:#1d1f23;margin:0}
main{max-width:26rem;margin:4rem auto;background:#fff;padding:2rem;border-radius:12px;box-shadow:0 1px 4px rgba(0,0,0,.12)}
h1{font-size:1.4rem;margin-top:0}label{display:block;margin-top:1rem;font-weight:600}
input{width:100%;box-sizing:border-box;padding:.6rem;margin-top:.3rem;font-size:1rem;border:1px solid #8a8f98;border-radius:6px}
button{margin-top:1.2rem;padding:.7rem 1.2rem;font-size:1rem;border:0;border-radius:6px;background:#1a5fd0;color:#fff;cursor:pointer}
button.secondary{background:#e3e5e8;color:#1d1f23;margin-left:.5rem}button:focus,input:focus{outline:3px solid #f0b400}
.error{color:#a4161a;font-weight:600}.muted{color:#555b63}.scopes li{margin:.4rem 0}code{color:#555b63;font-size:.85em}
`;
