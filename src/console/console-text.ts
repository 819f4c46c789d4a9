/** The console's words, in Korean (the default) and English, chosen by Accept-Language. */
export type ConsoleLanguage = 'ko' | 'en';

const ko = {
  title: '개발자 콘솔', skip: '본문으로 건너뛰기', apps: '앱', connected: '연결된 앱', password: '비밀번호', signOut: '로그아웃',
  signIn: '로그인', signUp: '가입하기', email: '이메일', name: '이름', handle: '핸들(영문, 숫자, _ -)', passwordLabel: '비밀번호 (12자 이상)',
  noAccount: '계정이 없나요?', haveAccount: '이미 계정이 있나요?', badCredentials: '이메일 또는 비밀번호가 맞지 않습니다.',
  tooMany: '시도가 너무 많습니다. 잠시 후 다시 시도하세요.', expired: '양식이 만료되었습니다. 다시 시도하세요.',
  signUpClosed: '지금은 가입을 받지 않습니다.', emailTaken: '이미 사용 중인 이메일 또는 핸들입니다.', invalid: '입력값을 확인하세요.',
  usage: '사용량', budget: '남은 전체 호출 한도', thisMinute: '이번 분', today: '오늘 (UTC)',
  budgetNote: '몇 초 늦게 반영됩니다. 429 응답은 한도에 들어가지 않습니다.', perMinute: '최근 1시간, 분마다', perDay: '최근 30일, 날마다',
  max: '최대', numbers: '숫자로 보기', byOperation: '최근 30일, 작업별', operation: '작업', calls: '호출', noCalls: '아직 호출이 없습니다.',
  oauthClient: 'OAuth 클라이언트', noClient: '사용자를 대신해 API를 부르려면 OAuth 클라이언트를 만드세요.', clientId: '클라이언트 ID', clientType: '종류',
  confidential: '기밀 (서버에서 비밀키 보관)', publicClient: '공개 (브라우저, 모바일 앱; PKCE만 사용)',
  redirectUris: '리디렉션 URI (한 줄에 하나, 최대 10개; https, 개발용으로 127.0.0.1/localhost/[::1]의 http)', allowedScopes: '요청할 수 있는 권한',
  createClient: '클라이언트 만들기', updateClient: '리디렉션 URI와 권한 저장', rotateSecret: '새 비밀키 발급', secretOverlap: '이전 비밀키를 계속 쓸 수 있는 기간',
  newSecret: '새 클라이언트 비밀키입니다. 지금 한 번만 보여 드리니 안전한 곳에 저장하세요.',
  profile: '앱 정보 (동의 화면에 보입니다)', yourApps: '내 앱', noApps: '아직 앱이 없습니다.', createApp: '앱 만들기', appName: '앱 이름', description: '설명',
  homepage: '홈페이지 URL (https)', privacy: '개인정보 처리방침 URL (https)', save: '저장', created: '만든 때',
  keys: '앱 키', keyHint: '키', state: '상태', working: '사용 중', worksUntil: '사용 가능: ', stopped: '중지됨', revoked: '폐기됨',
  revoke: '폐기', rotate: '새 키 발급', overlap: '이전 키를 계속 쓸 수 있는 기간',
  overlaps: { none: '없음 (즉시 중지)', '1h': '1시간', '24h': '24시간', '7d': '7일' } as Record<string, string>,
  newKey: '새 앱 키입니다. 지금 한 번만 보여 드리니 안전한 곳에 저장하세요.', audit: '변경 기록', when: '때', who: '누가', what: '무엇을',
  operator: '운영자', deleteApp: '앱 삭제', deleteWarning: '앱을 삭제하면 모든 키와 OAuth 클라이언트가 즉시 중지되고, 사용자가 이 앱에 준 모든 권한과 토큰이 취소됩니다.',
  connectedLead: '내 계정에 접근하도록 허용한 앱입니다. 허용을 취소하면 몇 초 안에 그 앱의 토큰이 거부됩니다.',
  noConnected: '연결된 앱이 없습니다.', scopes: '권한', grantedAt: '허용한 때', lastUsed: '마지막 사용', never: '없음',
  disconnect: '허용 취소', currentPassword: '현재 비밀번호', newPassword: '새 비밀번호 (12자 이상)', changePassword: '비밀번호 변경',
  passwordChanged: '비밀번호를 바꿨습니다.', notFound: '찾을 수 없습니다.', saved: '저장했습니다.',
};

const en: typeof ko = {
  title: 'Developer console', skip: 'Skip to content', apps: 'Apps', connected: 'Connected apps', password: 'Password', signOut: 'Sign out',
  signIn: 'Sign in', signUp: 'Sign up', email: 'E-mail', name: 'Name', handle: 'Handle (letters, digits, _ -)', passwordLabel: 'Password (12 characters or more)',
  noAccount: 'No account yet?', haveAccount: 'Have an account?', badCredentials: 'The e-mail or the password is not right.',
  tooMany: 'Too many attempts. Try again in a while.', expired: 'The form expired. Please try again.',
  signUpClosed: 'Sign-up is closed.', emailTaken: 'That e-mail or handle is taken.', invalid: 'Please check what you entered.',
  usage: 'Usage', budget: 'Global budget left', thisMinute: 'This minute', today: 'Today (UTC)',
  budgetNote: 'Counts arrive a few seconds late. 429 answers do not count against the limit.', perMinute: 'Last hour, by minute', perDay: 'Last 30 days, by day',
  max: 'most', numbers: 'Show the numbers', byOperation: 'Last 30 days, by operation', operation: 'Operation', calls: 'Calls', noCalls: 'No calls yet.',
  oauthClient: 'OAuth client', noClient: 'Create an OAuth client to call the API for your users.', clientId: 'Client ID', clientType: 'Type',
  confidential: 'Confidential (a server keeps the secret)', publicClient: 'Public (browser or mobile app; PKCE only)',
  redirectUris: 'Redirect URIs (one a line, at most 10; https, or http on 127.0.0.1, localhost or [::1] for development)', allowedScopes: 'Permissions it may request',
  createClient: 'Create the client', updateClient: 'Save redirect URIs and permissions', rotateSecret: 'Issue a new secret', secretOverlap: 'How long the current secret keeps working',
  newSecret: 'Your new client secret. It is shown this once: store it somewhere safe now.',
  profile: 'App profile (shown on the consent page)', yourApps: 'Your apps', noApps: 'No apps yet.', createApp: 'Create an app', appName: 'App name', description: 'Description',
  homepage: 'Homepage URL (https)', privacy: 'Privacy policy URL (https)', save: 'Save', created: 'Created',
  keys: 'App keys', keyHint: 'Key', state: 'State', working: 'Working', worksUntil: 'Works until ', stopped: 'Stopped', revoked: 'Revoked',
  revoke: 'Revoke', rotate: 'Issue a new key', overlap: 'How long the current keys keep working',
  overlaps: { none: 'None (stop at once)', '1h': '1 hour', '24h': '24 hours', '7d': '7 days' },
  newKey: 'Your new app key. It is shown this once: store it somewhere safe now.', audit: 'Audit trail', when: 'When', who: 'Who', what: 'What',
  operator: 'Operator', deleteApp: 'Delete app', deleteWarning: 'Deleting the app stops all its keys and its OAuth client at once, and revokes every grant and token users gave it.',
  connectedLead: 'Apps you allowed to use your account. Disconnecting one makes its tokens refused within seconds.',
  noConnected: 'No connected apps.', scopes: 'Permissions', grantedAt: 'Allowed', lastUsed: 'Last used', never: 'Never',
  disconnect: 'Disconnect', currentPassword: 'Current password', newPassword: 'New password (12 characters or more)', changePassword: 'Change password',
  passwordChanged: 'Your password was changed.', notFound: 'Not found.', saved: 'Saved.',
};

export const CONSOLE_TEXT: Record<ConsoleLanguage, typeof ko> = { ko, en };
export type ConsoleText = typeof ko;
