/**
 * The OpenAPI document's prose in Korean, for /openapi.ko.json and the /docs page's 한국어 definition: the
 * document's introduction, each tag's line, each operation's summary and description. Names, types, parameters,
 * schemas and codes are the contract and stay as they are; field and parameter descriptions stay in English
 * (docs/api.md, "The OpenAPI document"). A test holds this table to the operations the service has.
 */

const CATALOG = 'Accept-Language에 따라 ko, en, ja, zh-CN, zh-TW, es, fr, de, pt, th, vi 이름으로 보여 줍니다.';

export const KOREAN_INFO_DESCRIPTION =
  '앱 키로 채용 공고, 게시물, 이벤트를 검색하고 읽습니다. OAuth 2.0으로 사용자를 대신해 글을 쓰고 공고와 이벤트를 관리합니다. ' +
  '/api/v1 아래의 2xx가 아닌 응답은 모두 ErrorResponse 본문과, 그 작업의 성공 응답과 같은 헤더(X-Request-Id, Content-Language, RateLimit 헤더)를 가집니다. ' +
  '모든 /api/v1/… 작업은 /v1/… 경로로도 같은 작업(같은 한도와 캐시)으로 응답하고, 앱 키는 X-RP-API-Key나 X-OBA-API-Key로 보내도 됩니다. 실제 서비스용으로 작성된 클라이언트가 그대로 동작합니다. 필드와 매개변수 설명은 영어로 둡니다(계약의 이름과 코드는 두 언어에서 같습니다).';

export const KOREAN_TAGS: Record<string, string> = {
  Posts: '앱 키로 게시물을 검색하고 읽습니다. `post:write`로 사용자 본인의 게시물을 씁니다',
  Jobs: '채용 공고를 검색하고 읽습니다. `job:write`로 회사의 공고를 만들고, 게시하고, 마감하고, 삭제합니다',
  Events: '이벤트와 그 티켓, 세션, FAQ를 검색하고 읽습니다. `event:write`로 회사의 이벤트를 관리합니다',
  Companies:
    '회사 디렉터리를 검색하고 읽습니다(지금 채용 중인 공고 수와 함께). `company:write`로 회사 소개, 로고, 위치, 링크를 고칩니다',
  Profiles:
    '회원의 공개 프로필을 검색하고 읽습니다. 회원이 공개한 것만 보이고, 하루에 읽을 수 있는 서로 다른 프로필 수에 한도가 있습니다',
  Codes: '검색 매개변수와 쓰기 본문이 쓰는 코드 목록, Accept-Language에 따른 이름',
  Me: '로그인한 사용자 본인의 프로필(`profile:read`, `profile:write`)과 자기 회사들에서 할 수 있는 일(`company:manage:read`)',
  'OAuth Authorization': 'Authorization Code + PKCE 흐름: 로그인과 동의 페이지, 서버 메타데이터, 서명 키',
  'OAuth Token': '인가 코드나 리프레시 토큰을 토큰으로 교환하고, 리프레시 토큰을 폐기합니다',
  'OAuth UserInfo': '액세스 토큰의 사용자에 대한 클레임',
  Service: '로드 밸런서와 오케스트레이터를 위한 생존 확인과 준비 확인',
  Changes: '게시물, 채용 공고, 이벤트의 변경을 커밋 순서대로 따라갑니다(폴링 없이 동기화)',
};

/** operationId → [summary, description (empty: none)]. */
/** The description of a webhook: what a receiver must do, and what `data` is (`resource`: its name; null for a deletion). */
const WEBHOOK_KO = (resource: string | null) =>
  '이 변경을 받기로 한 앱의 웹훅 엔드포인트로 Standard Webhooks 서명과 함께 보냅니다. 본문을 믿기 전에 엔드포인트의 `whsec_` 비밀키로 ' +
  '`webhook-id.webhook-timestamp.본문`에 대한 `webhook-signature`를 확인하고, 전달은 적어도 한 번이므로 `webhook-id`로 중복을 거르세요. 10초 안에 2xx로 ' +
  '답하세요. 그 밖의 응답은 약 3일 동안 다시 보냅니다. ' +
  (resource === null
    ? '`data`는 null입니다.'
    : `\`data\`는 변경 직후 공개 조회가 보여 준 ${resource}이며, 그때 더는 공개되지 않았다면 null입니다.`);

export const KOREAN_OPERATIONS: Record<string, [string, string]> = {
  getLiveness: ['생존 확인', ''],
  getReadiness: ['준비 확인', ''],
  searchPosts: [
    '게시물 검색',
    '게시물 본문과 그 번역을 키워드로 검색하고 필터를 겁니다. 한국어, 일본어, 중국어 키워드는 단어 안에서도 맞습니다. Bearer 토큰을 (선택으로) 보내면 호출한 사용자의 게시물은 `owned`가 true입니다.',
  ],
  createPost: [
    '사용자의 게시물 작성',
    '멀티파트: JSON `request` 파트(`text`, `og.link`, `repostedPostId`)와 이미지 0~10개(`images`). 서비스가 `og.link`의 Open Graph 정보를 직접 가져오며, 실패하면 카드는 링크만 두고 나머지 필드는 null입니다. `@핸들` 멘션을 찾아 연결합니다.',
  ],
  getPost: ['게시물 읽기', '멘션과 리포스트 원본(한 단계)을 펼친 게시물.'],
  updatePost: [
    '사용자 본인 게시물의 본문과 Open Graph 정보 수정',
    '작성과 같은 멀티파트. `text`는 본문(과 그 멘션)을 바꾸고 이전 본문의 번역은 지웁니다. `og`는 카드를 바꾸고 `og: null`은 카드를 없앱니다. 이미지는 바꿀 수 없습니다.',
  ],
  deletePost: [
    '사용자 본인 게시물 삭제',
    '이미지, 멘션, 번역, 카드가 함께 지워지고 이미지는 더 이상 제공되지 않습니다.',
  ],
  searchCompanies: [
    '회사 검색',
    '네트워크의 모든 회사와 각 회사가 지금 채용 중인 공고 수. 한 필터의 값들은 OR, 서로 다른 필터는 AND로 묶입니다.',
  ],
  suggestCompanies: [
    '입력 중인 회사 이름 완성',
    '`prefix`로 시작하는 회사 이름. 사용자가 입력하는 동안 부르도록 만들었습니다.',
  ],
  getCompany: ['회사 읽기', '모든 업종, 링크, 사무실을 포함한 회사. 없는 핸들이면 404 C0008입니다.'],
  updateCompany: [
    '회사 정보 수정 (보낸 필드만 바뀜)',
    '멀티파트: JSON `request` 파트와/또는 현재 로고를 바꾸는 `logo`. 회사에서 ENT_COMPANY_EDIT(OWNER, ADMIN)가 필요합니다. 이름과 핸들은 여기서 바꾸지 않습니다. 공고, 게시물, 이벤트는 다음 조회부터 새 로고를 보여 주고, 변경 피드와 웹훅은 `company.updated`를 알립니다.',
  ],
  searchProfiles: [
    '공개 프로필 검색',
    '프로필을 공개한 회원과 그 회원이 보여 주는 항목. 한 필터의 값들은 OR, 서로 다른 필터는 AND로 묶입니다. 결과는 1,000번째까지이며, 그 뒤에서 시작하는 페이지는 400 C0005입니다.',
  ],
  suggestProfileSkills: [
    '입력 중인 기술 완성',
    '공개 프로필의 기술 가운데 `prefix`로 시작하는 것을 많이 쓰인 순서로. 회원 이름은 내놓지 않습니다.',
  ],
  getProfile: [
    '공개 프로필 읽기',
    '회원이 보여 주는 항목만 있고 숨긴 항목은 빠집니다. 비공개, 비활성 회원, 작성하지 않은 프로필은 없는 핸들과 똑같은 404 C0008입니다. 앱마다 UTC 하루에 서로 다른 프로필을 PROFILE_READS_PER_DAY개까지 읽습니다(넘으면 429 C0010과 `X-SVC-RateLimit-Scope: profile.read`). 그날 다시 읽는 프로필은 다시 세지 않습니다.',
  ],
  getMyProfile: [
    '사용자 본인의 프로필: 모든 항목과 공개 범위',
    '`profile:read`(또는 별칭 `profile`) 범위가 필요하고, `email`은 `email` 범위가 있을 때만 줍니다. 프로필을 쓴 적 없는 회원은 비어 있는 비공개 프로필을 받습니다.',
  ],
  updateMyProfile: [
    '사용자 프로필 수정 (보낸 필드만 바뀜)',
    '`profile:write` 범위. 비공개로 바꾸거나 항목을 숨기면 다음 요청부터 모든 인스턴스의 검색, 조회, 변경 피드에서 사라집니다.',
  ],
  deleteMyProfile: [
    '사용자 프로필 삭제',
    '`profile:write` 범위. 계정은 남고, 프로필은 검색과 조회에서 사라지며 변경 피드의 이전 변경은 내용을 잃습니다(`profile.deleted`).',
  ],
  searchJobs: ['채용 공고 검색', '지금 채용 중인 공고만. 한 필터의 값들은 OR, 서로 다른 필터는 AND로 묶입니다.'],
  suggestJobSearches: [
    '검색어 자동 완성',
    '지금 채용 중인 공고의 제목, 회사 이름, 제목의 낱말 가운데 입력한 글자로 시작하는 것을 공고가 많은 순서로. 한글은 음절, 덜 친 마지막 음절(`배ㄱ`), 초성(`ㅂㅇㄷ`)으로도 찾습니다.',
  ],
  getJob: [
    '채용 공고 읽기',
    '임시 저장과 삭제된 공고를 뺀 모든 공고. `status`가 `published`이고 `hiring`이 true일 때만 지원을 받는 공고로 보세요.',
  ],
  updatePlatformJob: [
    '채용 공고 수정 (보낸 필드만 바뀝니다)',
    'PLATFORM 공고만. 이미지를 보내면 공고의 이미지를 바꿉니다. 회사 전체나 그 공고에 ENT_JOB_UPDATE가 필요합니다.',
  ],
  deleteJob: ['채용 공고 삭제 (소프트 삭제)', ''],
  getMyCompanyPermissions: [
    '사용자가 회사 전체 역할을 가진 회사들',
    '회사마다 거기서 쓸 수 있는 권한과 함께. 리소스 단위 역할만 가진 회사는 빠집니다.',
  ],
  getMyResourceRoles: [
    '회사의 개별 공고와 이벤트에 대한 사용자의 역할',
    '`resourceId`(와 `resourceType`)가 있으면 정확한 확인으로 항목이 0개나 1개. 없으면 명시적으로 역할을 받은 리소스들을 페이지로. `items`는 언제나 있습니다.',
  ],
  searchEvents: ['이벤트 검색', '게시된 이벤트. 한 필터의 값들은 OR, 서로 다른 필터는 AND로 묶입니다.'],
  createEvent: [
    '회사의 이벤트 만들기',
    '멀티파트: JSON `request` 파트와 선택인 `banner`. `companyId` 회사에서 ENT_EVENT_CREATE가 필요합니다. 이벤트는 바로 게시됩니다.',
  ],
  getEvent: ['이벤트 읽기', '티켓, 세션, FAQ, 호스트를 포함한 게시된 이벤트.'],
  patchEvent: [
    '이벤트 수정 (보낸 필드만 바뀝니다)',
    '멀티파트: JSON `request` 파트, 또는 지금의 배너를 바꾸는 `banner`, 또는 둘 다. 회사 전체나 그 이벤트에 ENT_EVENT_UPDATE가 필요합니다.',
  ],
  deleteEvent: [
    '이벤트 삭제',
    '회사 전체나 그 이벤트에 ENT_EVENT_DELETE가 필요합니다. 이벤트는 바로 읽기에서 사라집니다.',
  ],
  getEventTickets: ['이벤트의 티켓', ''],
  getEventSessions: ['이벤트의 세션, 시간대별 (날짜, 시작과 끝 시각은 서비스 시간대)', ''],
  createEventSession: ['세션 추가', ''],
  getEventFaqs: ['이벤트의 FAQ, 분류별', ''],
  createEventFaq: ['FAQ 추가', ''],
  createFreeEventTicket: ['무료 티켓 만들기', ''],
  createChargedEventTicket: [
    '유료 티켓 만들기',
    '무료 티켓과 같고 `price`와 `currency`(ISO 4217, 기본 KRW)가 있습니다.',
  ],
  patchEventTicket: ['티켓 수정', ''],
  deleteEventTicket: ['티켓 삭제', ''],
  patchEventSession: ['세션 수정', ''],
  deleteEventSession: ['세션 삭제', ''],
  patchEventFaq: ['FAQ 수정', ''],
  deleteEventFaq: ['FAQ 삭제', ''],
  addEventHost: ['호스트 추가 (회사 또는 멤버)', ''],
  updateEventHostRole: ['호스트의 역할 바꾸기', ''],
  removeEventHost: ['호스트 빼기', ''],
  createJob: [
    '채용 공고 만들기 (임시 저장으로)',
    '지원은 서비스가 받습니다. `companyId` 회사에서 ENT_JOB_CREATE가 필요합니다. PUT /api/v1/jobs/{jobId}/active로 게시합니다.',
  ],
  publishJob: [
    '임시 저장이나 마감된 공고 게시',
    '날짜는 서비스 시간대 기준: startDate가 시작될 때 열리고 endDate가 끝날 때 닫힙니다(상시 채용은 endDate를 빼세요).',
  ],
  disableJob: ['게시된 공고 마감 (status finish)', ''],
  listAccessibleCompanyJobs: [
    '사용자가 볼 수 있는 회사 공고',
    'ENT_JOB_LIST가 있으면 회사의 모든 공고(임시 저장, 게시, 마감; 삭제된 공고는 빼고). 없으면 사용자가 ENT_JOB_VIEW를 가진 공고만.',
  ],
  getJobCategories: ['직무 분류 목록', CATALOG],
  getEmploymentTypes: ['고용 형태 목록', CATALOG],
  getSeniorities: ['경력 수준 목록', CATALOG],
  getCompanySizes: ['회사 규모 목록', CATALOG],
  getWorkTypes: ['근무 형태 목록', CATALOG],
  getJobIndustries: [
    '산업 분야 목록',
    `산업 분야 그룹(IT, FIN, MEDIA…)과 그 아래의 산업 코드(children). 회사는 산업 코드를 가집니다. ${CATALOG}`,
  ],
  getEventCategories: ['이벤트 분류 목록', CATALOG],
  getEventSubjects: ['이벤트 주제 목록', CATALOG],
  getAuthorizationServerMetadata: ['인가 서버 메타데이터 (RFC 8414)', ''],
  getJwks: [
    '액세스 토큰을 서명하는 공개 키 (JWKS)',
    '키는 ES256입니다. 물러난 키는 그 키로 서명한 토큰이 모두 만료될 때까지 여기 남습니다.',
  ],
  oauthAuthorize: [
    'Authorization Code + PKCE (S256) 흐름 시작',
    '로그인과 동의 페이지를 보여 준 뒤 code, state, iss를 붙여 redirect_uri로 보냅니다. 요청한 범위를 이미 동의했으면 동의 페이지를 건너뜁니다.',
  ],
  submitOAuthConsent: ['허용 또는 거부 (동의 페이지의 폼)', ''],
  submitOAuthSignIn: ['로그인 (로그인 페이지의 폼)', ''],
  oauthToken: [
    '인가 코드나 리프레시 토큰을 토큰으로 교환',
    '클라이언트 인증: HTTP Basic(form-urlencoded된 id와 secret) 또는 본문의 client_id/client_secret. 공개 클라이언트는 client_id만 보냅니다.',
  ],
  registerOAuthClient: [
    '클라이언트 등록 (RFC 7591 동적 클라이언트 등록)',
    '미리 등록한 클라이언트도 Client ID Metadata Document도 없는 에이전트 호스트를 위한 것입니다. 자격 증명이 필요 없는 대신 클라이언트 주소마다 횟수가 제한되고, 등록 후 하루 안에 그랜트를 하나도 마치지 않은 클라이언트는 지워집니다.',
  ],
  oauthRevoke: [
    '리프레시 토큰 폐기 (RFC 7009)',
    '토큰의 그랜트를 끝냅니다: 그 리프레시 토큰들은 바로, 액세스 토큰들은 5초 안에 거부됩니다. 모르는 토큰이나 이미 폐기된 토큰도 성공입니다.',
  ],
  postCreatedWebhook: ['게시물이 작성됨 (`post.created`)', WEBHOOK_KO('게시물')],
  postUpdatedWebhook: ['게시물이 수정됨 (`post.updated`)', WEBHOOK_KO('게시물')],
  postDeletedWebhook: ['게시물이 삭제됨 (`post.deleted`)', WEBHOOK_KO(null)],
  jobPublishedWebhook: ['채용 공고가 게시됨 (`job.published`)', WEBHOOK_KO('공고')],
  jobUpdatedWebhook: ['게시된 채용 공고가 바뀜 (`job.updated`)', WEBHOOK_KO('공고')],
  jobClosedWebhook: ['채용 공고가 마감됨: 비활성화 또는 모집 기간 종료 (`job.closed`)', WEBHOOK_KO('공고')],
  jobDeletedWebhook: ['채용 공고가 삭제됨 (`job.deleted`)', WEBHOOK_KO(null)],
  eventCreatedWebhook: ['이벤트가 만들어짐 (`event.created`)', WEBHOOK_KO('이벤트')],
  eventUpdatedWebhook: ['이벤트나 그 티켓, 세션, FAQ, 호스트가 바뀜 (`event.updated`)', WEBHOOK_KO('이벤트')],
  eventDeletedWebhook: ['이벤트가 삭제됨 (`event.deleted`)', WEBHOOK_KO(null)],
  companyUpdatedWebhook: ['회사 정보가 바뀜 (`company.updated`)', WEBHOOK_KO('회사')],
  profileUpdatedWebhook: [
    '회원의 공개 프로필이 바뀌거나 공개됨 (`profile.updated`)',
    WEBHOOK_KO('프로필(회원이 보여 주는 항목만)'),
  ],
  profileDeletedWebhook: [
    '회원의 프로필이 더는 공개되지 않음: 비공개, 삭제, 계정 비활성 (`profile.deleted`)',
    `${WEBHOOK_KO(null)} 이 프로필의 이전 변경도 내용을 잃습니다. 앱이 보관한 이 회원의 프로필 데이터를 지우세요.`,
  ],
  webhookPingWebhook: [
    '엔드포인트가 추가됨 (`webhook.ping`)',
    '개발자 콘솔에서 엔드포인트를 추가하면 한 번, 다른 전달과 똑같이 서명해 보냅니다. 실제 데이터를 만들지 않고 수신기와 비밀키를 확인할 수 있습니다. ' +
      '변경 피드의 변경이 아니니 2xx로 답하고 무시하거나 비밀키 확인에 쓰세요.',
  ],
  listChanges: [
    '게시물, 채용 공고, 이벤트의 변경 따라가기',
    '공개 API가 보여 주는 것의 모든 변경을 커서 뒤로 커밋 순서대로: 게시물의 작성, 수정, 삭제; 공고의 게시, 수정, 마감, 삭제; 이벤트의 생성, 수정(티켓, 세션, FAQ, 호스트 포함), 삭제. 여러 인스턴스에서 동시에 커밋되어도 빠지거나 겹치는 변경이 없습니다. 보관 기간(기본 30일)보다 오래된 커서는 410 `C0013`: 현재 상태를 다시 읽고 `after=now`부터 따라가세요.',
  ],
  getOAuthUserInfo: [
    '로그인한 사용자에 대한 클레임',
    '`profile` 범위(또는 별칭 `profile:read`)가 필요합니다. `email`과 `email_verified`는 `email` 범위가 필요합니다.',
  ],
};

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
}
interface Document {
  info: { description?: string };
  tags?: Array<{ name: string; description?: string }>;
  paths: Record<string, Record<string, unknown>>;
  webhooks?: Record<string, Record<string, unknown>>;
}

/** A copy of `document` with its prose in Korean; an operation missing from the table keeps its English. */
export function inKorean<T extends Document>(document: T): T {
  const copy = structuredClone(document);
  copy.info.description = KOREAN_INFO_DESCRIPTION;
  for (const tag of copy.tags ?? []) tag.description = KOREAN_TAGS[tag.name] ?? tag.description;
  for (const methods of [...Object.values(copy.paths), ...Object.values(copy.webhooks ?? {})]) {
    for (const operation of Object.values(methods) as Operation[]) {
      const korean = operation?.operationId ? KOREAN_OPERATIONS[operation.operationId] : undefined;
      if (!korean) continue;
      operation.summary = korean[0];
      if (korean[1]) operation.description = korean[1];
      else delete operation.description;
    }
  }
  return copy;
}
