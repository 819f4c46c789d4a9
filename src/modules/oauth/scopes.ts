/** The scopes of docs/api.md (Authentication), with their meaning in words for the consent page. */
export const SCOPES: Record<string, { ko: string; en: string }> = {
  profile: {
    ko: '이름, 프로필 사진과 내 프로필(경력, 학력, 기술, 비공개 항목 포함) 보기',
    en: 'See your name, picture and profile: career, education and skills, hidden parts included',
  },
  'profile:read': {
    ko: '이름, 프로필 사진과 내 프로필(경력, 학력, 기술, 비공개 항목 포함) 보기',
    en: 'See your name, picture and profile: career, education and skills, hidden parts included',
  },
  email: { ko: '이메일 주소 보기', en: 'See your e-mail address' },
  'profile:write': {
    ko: '내 프로필(경력, 학력, 기술, 공개 범위) 수정 및 삭제',
    en: 'Edit or delete your profile: career, education, skills and who can see them',
  },
  'post:write': { ko: '내 이름으로 게시물 작성, 수정, 삭제', en: 'Write, edit and delete posts as you' },
  'job:write': {
    ko: '회사 채용공고 작성, 수정, 게시, 마감, 삭제',
    en: 'Create, edit, publish, close and delete job postings of your companies',
  },
  'job:manage:read': {
    ko: '관리 권한이 있는 회사 채용공고 보기',
    en: 'See the job postings you manage at your companies',
  },
  'event:write': { ko: '회사 이벤트와 티켓 관리', en: "Manage your companies' events and tickets" },
  'company:write': {
    ko: '관리 권한이 있는 회사의 소개, 로고, 위치 등 회사 정보 수정',
    en: "Edit your companies' profile: description, logo, place and links",
  },
  'company:manage:read': { ko: '회사에서 내가 할 수 있는 일 보기', en: 'See what you may do at your companies' },
};

export const SUPPORTED_SCOPES = Object.keys(SCOPES);

/** `profile:read` is an alias of `profile` (docs/decisions.md). */
const canonical = (scope: string) => (scope === 'profile:read' ? 'profile' : scope);

/** Space-separated scope text → distinct scopes in the order given. */
export function parseScopes(text: string | undefined): string[] {
  return [
    ...new Set(
      (text ?? '')
        .split(' ')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
}

/**
 * The scopes an authorization or refresh request asks for, less `offline_access` (OpenID Connect; hosts following
 * MCP 2026-07-28 add it to get a refresh token): refresh tokens are always issued here, so it asks for nothing more
 * and is neither refused nor granted as a scope of its own.
 */
export function requestedScopes(text: string | undefined): string[] {
  return parseScopes(text).filter((scope) => scope !== 'offline_access');
}

export function unknownScopes(scopes: string[]): string[] {
  return scopes.filter((s) => !(s in SCOPES));
}

/** Whether `granted` includes every scope of `requested`, aliases counted as the same scope. */
export function covers(granted: string[], requested: string[]): boolean {
  const have = new Set(granted.map(canonical));
  return requested.every((s) => have.has(canonical(s)));
}

export function hasScope(granted: string[], scope: string): boolean {
  return covers(granted, [scope]);
}
