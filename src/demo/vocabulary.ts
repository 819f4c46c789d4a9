/**
 * Words and sentence templates of the demo data, in the original language and in each translation
 * language (ko, en, ja, zh-CN, zh-TW), so translated bodies say the same thing.
 */
export const TEXT_LANGUAGES = ['ko', 'en', 'ja', 'zh-CN', 'zh-TW'] as const;
export type TextLanguage = (typeof TEXT_LANGUAGES)[number];
export type Multilingual = Record<TextLanguage, string>;

const ml = (ko: string, en: string, ja: string, zhCN: string, zhTW: string): Multilingual => ({
  ko,
  en,
  ja,
  'zh-CN': zhCN,
  'zh-TW': zhTW,
});

export interface Role {
  name: Multilingual;
  category: string;
}

export const ROLES: Role[] = [
  {
    name: ml('백엔드개발자', 'backend developer', 'バックエンド開発者', '后端开发工程师', '後端開發工程師'),
    category: 'dev',
  },
  {
    name: ml('프론트엔드개발자', 'frontend developer', 'フロントエンド開発者', '前端开发工程师', '前端開發工程師'),
    category: 'dev',
  },
  { name: ml('데이터엔지니어', 'data engineer', 'データエンジニア', '数据工程师', '資料工程師'), category: 'dataAi' },
  { name: ml('AI엔지니어', 'AI engineer', 'AIエンジニア', 'AI工程师', 'AI工程師'), category: 'dataAi' },
  {
    name: ml('프로덕트디자이너', 'product designer', 'プロダクトデザイナー', '产品设计师', '產品設計師'),
    category: 'designUX',
  },
  {
    name: ml('프로덕트매니저', 'product manager', 'プロダクトマネージャー', '产品经理', '產品經理'),
    category: 'product',
  },
  {
    name: ml('퍼포먼스마케터', 'performance marketer', 'パフォーマンスマーケター', '效果营销专员', '成效行銷專員'),
    category: 'marketingPr',
  },
  {
    name: ml('기업영업담당자', 'account executive', '法人営業担当', '企业销售代表', '企業業務代表'),
    category: 'sales',
  },
  { name: ml('인사담당자', 'HR partner', '人事担当者', '人力资源专员', '人資專員'), category: 'hr' },
  {
    name: ml(
      '고객성공매니저',
      'customer success manager',
      'カスタマーサクセスマネージャー',
      '客户成功经理',
      '客戶成功經理',
    ),
    category: 'customerService',
  },
];

export const TECHS = [
  'TypeScript',
  'Kotlin',
  'PostgreSQL',
  'Kubernetes',
  'React',
  'Spark',
  'Go',
  'Rust',
  'Figma',
  'GA4',
];

export const CITIES: Multilingual[] = [
  ml('서울', 'Seoul', 'ソウル', '首尔', '首爾'),
  ml('부산', 'Busan', '釜山', '釜山', '釜山'),
  ml('판교', 'Pangyo', '板橋', '板桥', '板橋'),
  ml('도쿄', 'Tokyo', '東京', '东京', '東京'),
];

/** Post bodies; {company}, {role}, {tech}, {city} are filled in. */
export const POST_TEMPLATES: Multilingual[] = [
  ml(
    '{company}에서 {role}를 찾고 있습니다. {tech} 경험이 있다면 지원해 주세요!',
    '{company} is looking for a {role}. If you have {tech} experience, please apply!',
    '{company}では{role}を募集しています。{tech}の経験があればぜひご応募ください！',
    '{company}正在招聘{role}。如果你有{tech}经验，欢迎申请！',
    '{company}正在招募{role}。如果你有{tech}經驗，歡迎應徵！',
  ),
  ml(
    '오늘 팀 회고에서 {tech} 도입 경험을 나눴습니다. 작은 실험이 큰 변화를 만들었어요.',
    "In today's team retrospective we shared our experience adopting {tech}. Small experiments made a big difference.",
    '今日のチーム振り返りで{tech}導入の経験を共有しました。小さな実験が大きな変化を生みました。',
    '今天的团队回顾中，我们分享了引入{tech}的经验。小实验带来了大变化。',
    '今天的團隊回顧中，我們分享了導入{tech}的經驗。小實驗帶來了大改變。',
  ),
  ml(
    '{role}로 일한 지 3년, 가장 중요한 건 결국 소통이라는 걸 배웠습니다.',
    'Three years as a {role} taught me that communication matters most.',
    '{role}として3年働き、結局一番大事なのはコミュニケーションだと学びました。',
    '做了三年{role}，我学到最重要的是沟通。',
    '當了三年{role}，我學到最重要的是溝通。',
  ),
  ml(
    '다음 주 {city}에서 열리는 {tech} 밋업에서 발표합니다. 많이 와주세요!',
    "I'm speaking at the {tech} meetup in {city} next week. Come along!",
    '来週{city}で開かれる{tech}ミートアップで登壇します。ぜひお越しください！',
    '下周我将在{city}举办的{tech}聚会上演讲，欢迎参加！',
    '下週我將在{city}舉辦的{tech}聚會上演講，歡迎參加！',
  ),
  ml(
    '{company} 기술 블로그에 {tech} 성능 개선기를 올렸습니다. 응답 시간이 절반으로 줄었어요.',
    'We published a post on the {company} engineering blog about improving {tech} performance. Response times dropped by half.',
    '{company}の技術ブログに{tech}のパフォーマンス改善記事を公開しました。応答時間が半分になりました。',
    '我们在{company}技术博客上发布了{tech}性能优化的文章，响应时间缩短了一半。',
    '我們在{company}技術部落格發表了{tech}效能優化的文章，回應時間縮短了一半。',
  ),
  ml(
    '신입 {role} 온보딩 프로그램을 새로 만들었습니다. 첫 주에 배포까지 해보는 게 목표예요.',
    'We built a new onboarding program for new {role}s. The goal is to ship to production in the first week.',
    '新人{role}向けのオンボーディングプログラムを新しく作りました。初週で本番デプロイまで経験するのが目標です。',
    '我们为新入职的{role}设计了新的入职计划，目标是第一周就完成上线部署。',
    '我們為新進{role}設計了新的到職計畫，目標是第一週就完成上線部署。',
  ),
  ml(
    '원격 근무 2년 차, {city}와 제주를 오가며 일하고 있습니다. 집중 시간을 지키는 게 핵심이에요.',
    'Two years into remote work, I split my time between {city} and Jeju. Protecting focus time is the key.',
    'リモートワーク2年目、{city}と済州を行き来しながら働いています。集中時間を守ることが鍵です。',
    '远程工作第二年，我往返于{city}和济州之间工作。关键是守住专注时间。',
    '遠端工作第二年，我往返於{city}和濟州之間工作。關鍵是守住專注時間。',
  ),
  ml(
    '{company}가 시리즈 B 투자를 유치했습니다. 함께 성장할 {role}를 모십니다.',
    "{company} has raised a Series B round. We're hiring a {role} to grow with us.",
    '{company}がシリーズBの資金調達を完了しました。一緒に成長する{role}を募集中です。',
    '{company}完成了B轮融资，正在招聘一起成长的{role}。',
    '{company}完成了B輪融資，正在招募一起成長的{role}。',
  ),
];

export const JOB_TEXTS = {
  subtitle: ml(
    '{tech}로 {city}에서 함께 만들어요',
    'Build with {tech} in {city}',
    '{city}で{tech}を使って一緒に作りましょう',
    '在{city}用{tech}一起打造产品',
    '在{city}用{tech}一起打造產品',
  ),
  description: ml(
    '{company}는 {tech}로 수백만 명이 쓰는 서비스를 만듭니다. {role}로서 제품의 핵심을 함께 설계해 주세요.',
    '{company} builds services used by millions with {tech}. As a {role}, help us design the core of the product.',
    '{company}は{tech}で数百万人が使うサービスを作っています。{role}として製品の中核を一緒に設計してください。',
    '{company}用{tech}打造数百万人使用的服务。作为{role}，请与我们一起设计产品的核心。',
    '{company}用{tech}打造數百萬人使用的服務。作為{role}，請與我們一起設計產品的核心。',
  ),
  duty: ml(
    '{tech} 기반 서비스 설계와 운영, 코드 리뷰와 기술 문서 작성',
    'Design and run {tech}-based services; review code and write technical documents',
    '{tech}ベースのサービス設計と運用、コードレビューと技術文書の作成',
    '设计和运营基于{tech}的服务，进行代码评审并撰写技术文档',
    '設計與營運基於{tech}的服務，進行程式碼審查並撰寫技術文件',
  ),
  minimumQualification: ml(
    '{tech} 실무 경험 2년 이상',
    'At least two years of hands-on {tech} experience',
    '{tech}の実務経験2年以上',
    '两年以上{tech}实际工作经验',
    '兩年以上{tech}實務經驗',
  ),
  preferredQualification: ml(
    '대규모 트래픽 서비스 운영 경험',
    'Experience running high-traffic services',
    '大規模トラフィックのサービス運用経験',
    '有运营大流量服务的经验',
    '有營運大流量服務的經驗',
  ),
  benefit: ml(
    '유연 근무, 교육비 지원, 최신 장비 제공',
    'Flexible hours, learning budget, latest equipment',
    'フレックス勤務、学習費補助、最新機材の支給',
    '弹性工作、学习经费支持、最新设备',
    '彈性工時、學習經費補助、最新設備',
  ),
  hireProcess: ml(
    '서류 전형 → 기술 인터뷰 → 컬처 인터뷰 → 처우 협의',
    'Application review → technical interview → culture interview → offer',
    '書類選考 → 技術面接 → カルチャー面接 → 条件面談',
    '简历筛选 → 技术面试 → 文化面试 → 薪资沟通',
    '履歷審查 → 技術面試 → 文化面試 → 薪資協商',
  ),
  hireNotes: ml(
    '수습 기간 3개월이 있습니다.',
    'There is a three-month probation period.',
    '3か月の試用期間があります。',
    '有三个月试用期。',
    '有三個月試用期。',
  ),
};

export const EVENT_TEXTS = {
  name: ml(
    '{city} {tech} 컨퍼런스 2026',
    '{city} {tech} Conference 2026',
    '{city} {tech} カンファレンス 2026',
    '{city} {tech} 大会 2026',
    '{city} {tech} 大會 2026',
  ),
  description: ml(
    '{tech} 실무자들이 모여 경험을 나누는 자리입니다. 세션과 네트워킹이 준비되어 있습니다.',
    'Practitioners of {tech} gather to share what they learned. Sessions and networking are prepared.',
    '{tech}の実務者が集まり経験を共有する場です。セッションと交流会を用意しています。',
    '{tech}从业者齐聚一堂分享经验，准备了演讲和交流环节。',
    '{tech}從業者齊聚一堂分享經驗，準備了演講和交流環節。',
  ),
};

export function fill(template: string, slots: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => slots[name] ?? '');
}

export const COMPANIES = [
  { handle: 'acme-labs', name: 'Acme Labs', industry: 'IT_SOFTWARE', size: 'MEDIUM', certificated: true },
  { handle: 'nova-fintech', name: '노바핀테크', industry: 'FIN_FINTECH', size: 'SMALL', certificated: false },
  { handle: 'hanbit-soft', name: '한빛소프트웨어', industry: 'IT_SOFTWARE', size: 'LARGE', certificated: true },
  { handle: 'sakura-commerce', name: 'Sakura Commerce', industry: 'DIST_SALES', size: 'HUGE', certificated: false },
  { handle: 'blue-mobility', name: '블루모빌리티', industry: 'DIST_LOGISTICS', size: 'MEDIUM', certificated: false },
  { handle: 'green-health', name: '그린헬스케어', industry: 'MEDICAL_HOSPITAL', size: 'SMALL', certificated: false },
  { handle: 'pixel-studio', name: 'Pixel Studio', industry: 'MEDIA_DESIGN', size: 'TINY', certificated: false },
  { handle: 'data-bridge', name: '데이터브릿지', industry: 'IT_AI', size: 'SMALL', certificated: true },
  { handle: 'edu-next', name: '에듀넥스트', industry: 'SERVICE_EDUCATION', size: 'MEDIUM', certificated: false },
  { handle: 'seoul-bank', name: '서울뱅크', industry: 'FIN_FINTECH', size: 'HUGE', certificated: true },
  { handle: 'moon-factory', name: '문팩토리', industry: 'MFG_ETC', size: 'LARGE', certificated: false },
  { handle: 'k-logistics', name: 'K-Logistics', industry: 'DIST_LOGISTICS', size: 'LARGE', certificated: false },
] as const;

export const FAMILY_NAMES = ['김', '이', '박', '최', '정', '강', '조', '윤', '장', '임', '한', '오'];
export const GIVEN_NAMES = [
  '민준',
  '서연',
  '도윤',
  '지우',
  '하준',
  '서윤',
  '은우',
  '지민',
  '시우',
  '하은',
  '유진',
  '태현',
];
export const LATIN_NAMES = ['Alex Kim', 'Sora Tanaka', 'Mei Lin', 'Daniel Park', 'Emma Choi', 'Yuki Sato'];
