import { SCOPES } from './scopes.js';

export type PageLanguage = 'ko' | 'en';

const TEXT = {
  ko: {
    signInTitle: '로그인', signInLead: (app: string) => `${app}에서 계정 사용을 요청했습니다. 계속하려면 로그인하세요.`,
    email: '이메일', password: '비밀번호', signIn: '로그인',
    consentTitle: '권한 요청', consentLead: (app: string) => `${app}에서 다음 권한을 요청합니다.`,
    signedInAs: (name: string) => `${name} 님으로 로그인됨`, allow: '허용', deny: '거부', homepage: '홈페이지', privacy: '개인정보 처리방침',
    errorTitle: '요청을 처리할 수 없습니다', badCredentials: '이메일 또는 비밀번호가 올바르지 않습니다.',
    tooMany: '로그인 시도가 너무 많습니다. 잠시 후 다시 시도하세요.', expired: '양식이 만료되었습니다. 다시 시도하세요.',
  },
  en: {
    signInTitle: 'Sign in', signInLead: (app: string) => `${app} asks to use your account. Sign in to continue.`,
    email: 'E-mail', password: 'Password', signIn: 'Sign in',
    consentTitle: 'Permission request', consentLead: (app: string) => `${app} asks for these permissions:`,
    signedInAs: (name: string) => `Signed in as ${name}`, allow: 'Allow', deny: 'Deny', homepage: 'Homepage', privacy: 'Privacy policy',
    errorTitle: 'The request cannot be completed', badCredentials: 'The e-mail or password is incorrect.',
    tooMany: 'Too many sign-in attempts. Wait a while and try again.', expired: 'The form expired. Please try again.',
  },
};

export const pageText = (lang: PageLanguage) => TEXT[lang];

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function layout(lang: PageLanguage, title: string, body: string): string {
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="/oauth/assets/page.css">
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
</body>
</html>
`;
}

const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;

export function loginPage(p: { lang: PageLanguage; clientName: string; csrf: string; authorizeQuery: string; email?: string; error?: string }): string {
  const t = pageText(p.lang);
  return layout(p.lang, t.signInTitle, `
<p>${escapeHtml(t.signInLead(p.clientName))}</p>
${p.error ? `<p class="error" role="alert">${escapeHtml(p.error)}</p>` : ''}
<form method="post" action="/oauth/login">
${hidden('csrf_token', p.csrf)}
${hidden('authorize_query', p.authorizeQuery)}
<label for="email">${t.email}</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(p.email ?? '')}">
<label for="password">${t.password}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">${t.signIn}</button>
</form>`);
}

/** What an app tells the users it asks (the developer console sets it); a client without an app shows its own name. */
export interface AppProfile { name: string; description: string; homepageUrl: string | null; privacyUrl: string | null }

export function consentPage(p: { lang: PageLanguage; clientName: string; app: AppProfile | null; userName: string; scopes: string[]; csrf: string; authorizeQuery: string }): string {
  const t = pageText(p.lang);
  const items = p.scopes.map((s) => `<li><strong>${escapeHtml(SCOPES[s]?.[p.lang] ?? s)}</strong> <code>${escapeHtml(s)}</code></li>`).join('\n');
  const links = p.app ? [[p.app.homepageUrl, t.homepage], [p.app.privacyUrl, t.privacy]]
    .filter((link): link is [string, string] => Boolean(link[0]))
    .map(([url, label]) => `<a href="${escapeHtml(url)}" rel="noopener noreferrer" target="_blank">${escapeHtml(label)}</a>`).join(' · ') : '';
  return layout(p.lang, t.consentTitle, `
<p>${escapeHtml(t.consentLead(p.app?.name || p.clientName))}</p>
${p.app?.description ? `<p class="muted">${escapeHtml(p.app.description)}</p>` : ''}
${links ? `<p class="app-links">${links}</p>` : ''}
<ul class="scopes">
${items}
</ul>
<p class="muted">${escapeHtml(t.signedInAs(p.userName))}</p>
<form method="post" action="/oauth/authorize">
${hidden('csrf_token', p.csrf)}
${hidden('authorize_query', p.authorizeQuery)}
<button type="submit" name="decision" value="allow">${t.allow}</button>
<button type="submit" name="decision" value="deny" class="secondary">${t.deny}</button>
</form>`);
}

export function errorPage(lang: PageLanguage, message: string): string {
  return layout(lang, pageText(lang).errorTitle, `<p class="error" role="alert">${escapeHtml(message)}</p>`);
}

export const PAGE_CSS = `body{font-family:system-ui,-apple-system,"Apple SD Gothic Neo","Noto Sans KR",sans-serif;background:#f4f5f7;color:#1d1f23;margin:0}
main{max-width:26rem;margin:4rem auto;background:#fff;padding:2rem;border-radius:12px;box-shadow:0 1px 4px rgba(0,0,0,.12)}
h1{font-size:1.4rem;margin-top:0}label{display:block;margin-top:1rem;font-weight:600}
input{width:100%;box-sizing:border-box;padding:.6rem;margin-top:.3rem;font-size:1rem;border:1px solid #8a8f98;border-radius:6px}
button{margin-top:1.2rem;padding:.7rem 1.2rem;font-size:1rem;border:0;border-radius:6px;background:#1a5fd0;color:#fff;cursor:pointer}
button.secondary{background:#e3e5e8;color:#1d1f23;margin-left:.5rem}button:focus,input:focus{outline:3px solid #f0b400}
.error{color:#a4161a;font-weight:600}.muted{color:#555b63}.scopes li{margin:.4rem 0}code{color:#555b63;font-size:.85em}
`;
