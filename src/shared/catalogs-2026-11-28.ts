/**
 * The code catalogs as of 2026-11-28, frozen: migration 025 writes exactly this, whatever the catalogs become
 * later (`test/rooms.test.ts` holds the file to its hash). Each label line holds the 11 locales in LOCALES order,
 * separated by `|`. The codes are the real service's: the enums its published document declares (employment
 * types, event categories and subjects, seniorities, company sizes, work types), and for job categories and
 * industries the codes seen in its responses, with more in their style (docs/api.md, "Catalogs").
 *
 * A change to a catalog is a new dated file beside this one, which catalog-data.ts then exports, and a migration
 * that writes it.
 */
export const LOCALES = ['ko', 'en', 'ja', 'zh-CN', 'zh-TW', 'es', 'fr', 'de', 'pt', 'th', 'vi'] as const;
export type Locale = (typeof LOCALES)[number];

export const CATALOG_NAMES = [
  'job-categories', 'employment-types', 'seniorities', 'company-sizes',
  'work-types', 'job-industries', 'event-categories', 'event-subjects',
] as const;
export type CatalogName = (typeof CATALOG_NAMES)[number];

const sizeLabels = (range: string, rangeTh: string) =>
  `${range}명|${range} employees|${range}名|${range}人|${range}人|${range} empleados|${range} salariés|${range} Beschäftigte|${range} funcionários|${rangeTh} คน|${range} nhân viên`;

export const CATALOG_DATA: Record<CatalogName, Array<[code: string, labels: string]>> = {
  'job-categories': [
    ['dev', '개발|Development|開発|开发|開發|Desarrollo|Développement|Entwicklung|Desenvolvimento|การพัฒนา|Phát triển'],
    ['dataAi', '데이터·AI|Data & AI|データ・AI|数据与人工智能|資料與人工智慧|Datos e IA|Données et IA|Daten und KI|Dados e IA|ข้อมูลและ AI|Dữ liệu và AI'],
    ['designUX', '디자인·UX|Design & UX|デザイン・UX|设计与用户体验|設計與使用者體驗|Diseño y UX|Design et UX|Design und UX|Design e UX|การออกแบบและ UX|Thiết kế và UX'],
    ['product', '기획·PM|Product & Planning|企画・PM|产品与策划|產品與企劃|Producto y planificación|Produit et planification|Produkt und Planung|Produto e planejamento|ผลิตภัณฑ์และการวางแผน|Sản phẩm và kế hoạch'],
    ['manage', '경영·운영|Management & Operations|経営・運営|经营与运营|經營與營運|Dirección y operaciones|Direction et opérations|Management und Betrieb|Gestão e operações|การบริหารและปฏิบัติการ|Quản lý và vận hành'],
    ['marketingPr', '마케팅·PR|Marketing & PR|マーケティング・広報|市场营销与公关|行銷與公關|Marketing y relaciones públicas|Marketing et relations publiques|Marketing und PR|Marketing e relações públicas|การตลาดและประชาสัมพันธ์|Tiếp thị và PR'],
    ['sales', '영업|Sales|営業|销售|業務銷售|Ventas|Ventes|Vertrieb|Vendas|ฝ่ายขาย|Bán hàng'],
    ['finance', '재무·회계|Finance & Accounting|財務・会計|财务与会计|財務與會計|Finanzas y contabilidad|Finance et comptabilité|Finanzen und Buchhaltung|Finanças e contabilidade|การเงินและบัญชี|Tài chính và kế toán'],
    ['hr', '인사·HR|Human Resources|人事|人力资源|人力資源|Recursos humanos|Ressources humaines|Personalwesen|Recursos humanos|ทรัพยากรบุคคล|Nhân sự'],
    ['customerService', '고객 서비스|Customer Service|カスタマーサービス|客户服务|客戶服務|Atención al cliente|Service client|Kundenservice|Atendimento ao cliente|บริการลูกค้า|Dịch vụ khách hàng'],
    ['legal', '법무|Legal|法務|法务|法務|Asesoría jurídica|Juridique|Recht|Jurídico|กฎหมาย|Pháp chế'],
    ['media', '미디어·콘텐츠|Media & Content|メディア・コンテンツ|媒体与内容|媒體與內容|Medios y contenido|Médias et contenu|Medien und Inhalte|Mídia e conteúdo|สื่อและคอนเทนต์|Truyền thông và nội dung'],
    ['rnd', '연구개발|Research & Development|研究開発|研发|研發|Investigación y desarrollo|Recherche et développement|Forschung und Entwicklung|Pesquisa e desenvolvimento|การวิจัยและพัฒนา|Nghiên cứu và phát triển'],
  ],
  'employment-types': [
    ['FULL_TIME', '정규직|Full-time|正社員|全职|全職|Tiempo completo|Temps plein|Vollzeit|Tempo integral|งานประจำ|Toàn thời gian'],
    ['FIXED_TERM', '계약직|Fixed-term|契約社員|合同制|約聘|Contrato temporal|Contrat à durée déterminée|Befristet|Contrato por prazo determinado|สัญญาจ้างมีกำหนดระยะเวลา|Hợp đồng có thời hạn'],
    ['COMMISSIONED', '위촉직|Commissioned|委嘱|委托制|委任|Por encargo|Sur mandat|Auftragsbasiert|Comissionado|จ้างตามภารกิจ|Ủy nhiệm'],
    ['INTERN', '인턴|Internship|インターン|实习|實習|Prácticas|Stage|Praktikum|Estágio|ฝึกงาน|Thực tập'],
    ['FREELANCER', '프리랜서|Freelancer|フリーランス|自由职业|自由工作者|Freelance|Freelance|Freiberuflich|Freelancer|ฟรีแลนซ์|Tự do'],
    ['SELF_EMPLOYED', '개인사업자|Self-employed|個人事業主|个体经营|自營業者|Trabajador por cuenta propia|Travailleur indépendant|Selbstständig|Autônomo|ประกอบธุรกิจส่วนตัว|Tự kinh doanh'],
  ],
  seniorities: [
    ['BEGINNER', '신입|Entry level|新卒・未経験|应届/入门|新鮮人|Principiante|Débutant|Berufseinsteiger|Iniciante|ระดับเริ่มต้น|Mới vào nghề'],
    ['JUNIOR', '주니어|Junior|ジュニア|初级|初階|Júnior|Junior|Junior|Júnior|ระดับจูเนียร์|Nhân viên'],
    ['MIDLEVEL', '미들|Mid-level|ミドル|中级|中階|Nivel medio|Confirmé|Mittleres Level|Pleno|ระดับกลาง|Trung cấp'],
    ['SENIOR', '시니어|Senior|シニア|高级|資深|Sénior|Senior|Senior|Sênior|ระดับอาวุโส|Cấp cao'],
    ['EXECUTIVE', '임원|Executive|エグゼクティブ|高管|高階主管|Directivo|Cadre dirigeant|Führungskraft|Executivo|ผู้บริหาร|Điều hành'],
  ],
  'company-sizes': [
    ['TINY', sizeLabels('1–10', '1–10')],
    ['SMALL', sizeLabels('11–50', '11–50')],
    ['MEDIUM', sizeLabels('51–200', '51–200')],
    ['LARGE', sizeLabels('201–1,000', '201–1,000')],
    ['HUGE', '1,000명 이상|1,000+ employees|1,000名以上|1000人以上|1000人以上|Más de 1.000 empleados|Plus de 1 000 salariés|Über 1.000 Beschäftigte|Mais de 1.000 funcionários|มากกว่า 1,000 คน|Trên 1.000 nhân viên'],
  ],
  'work-types': [
    ['ONSITE', '출근|On-site|出社|现场办公|現場辦公|Presencial|Sur site|Vor Ort|Presencial|ทำงานที่สำนักงาน|Tại văn phòng'],
    ['HYBRID', '하이브리드|Hybrid|ハイブリッド|混合办公|混合辦公|Híbrido|Hybride|Hybrid|Híbrido|ไฮบริด|Kết hợp'],
    ['REMOTE', '원격 근무|Remote|リモート|远程办公|遠端工作|Remoto|Télétravail|Remote|Remoto|ทำงานทางไกล|Từ xa'],
  ],
  'job-industries': [
    ['IT_SOFTWARE', 'IT·소프트웨어|IT · Software|IT・ソフトウェア|IT·软件|IT·軟體|TI · Software|Informatique · Logiciels|IT · Software|TI · Software|ไอที · ซอฟต์แวร์|CNTT · Phần mềm'],
    ['IT_PORTAL', 'IT·포털·인터넷|IT · Portals & Internet|IT・ポータル・インターネット|IT·门户与互联网|IT·入口網站與網路|TI · Portales e internet|Informatique · Portails et Internet|IT · Portale und Internet|TI · Portais e internet|ไอที · พอร์ทัลและอินเทอร์เน็ต|CNTT · Cổng thông tin và Internet'],
    ['IT_NETWORK', 'IT·네트워크·통신|IT · Network & Telecom|IT・ネットワーク・通信|IT·网络与通信|IT·網路與通訊|TI · Redes y telecomunicaciones|Informatique · Réseaux et télécoms|IT · Netzwerk und Telekommunikation|TI · Redes e telecomunicações|ไอที · เครือข่ายและโทรคมนาคม|CNTT · Mạng và viễn thông'],
    ['IT_AI', 'IT·인공지능|IT · Artificial Intelligence|IT・人工知能|IT·人工智能|IT·人工智慧|TI · Inteligencia artificial|Informatique · Intelligence artificielle|IT · Künstliche Intelligenz|TI · Inteligência artificial|ไอที · ปัญญาประดิษฐ์|CNTT · Trí tuệ nhân tạo'],
    ['IT_CONSULTING', 'IT·컨설팅|IT · Consulting|IT・コンサルティング|IT·咨询|IT·顧問|TI · Consultoría|Informatique · Conseil|IT · Beratung|TI · Consultoria|ไอที · ที่ปรึกษา|CNTT · Tư vấn'],
    ['FIN_FINTECH', '금융·핀테크|Finance · Fintech|金融・フィンテック|金融·金融科技|金融·金融科技|Finanzas · Fintech|Finance · Fintech|Finanzen · Fintech|Finanças · Fintech|การเงิน · ฟินเทค|Tài chính · Fintech'],
    ['FIN_ETC', '금융·기타|Finance · Other|金融・その他|金融·其他|金融·其他|Finanzas · Otros|Finance · Autres|Finanzen · Sonstiges|Finanças · Outros|การเงิน · อื่น ๆ|Tài chính · Khác'],
    ['MEDIA_ENTERTAINMENT', '미디어·엔터테인먼트|Media · Entertainment|メディア・エンタメ|传媒·娱乐|媒體·娛樂|Medios · Entretenimiento|Médias · Divertissement|Medien · Unterhaltung|Mídia · Entretenimento|สื่อ · บันเทิง|Truyền thông · Giải trí'],
    ['MEDIA_DESIGN', '미디어·디자인|Media · Design|メディア・デザイン|传媒·设计|媒體·設計|Medios · Diseño|Médias · Design|Medien · Design|Mídia · Design|สื่อ · ออกแบบ|Truyền thông · Thiết kế'],
    ['SERVICE_EDUCATION', '서비스·교육|Services · Education|サービス・教育|服务·教育|服務·教育|Servicios · Educación|Services · Éducation|Dienstleistungen · Bildung|Serviços · Educação|บริการ · การศึกษา|Dịch vụ · Giáo dục'],
    ['SERVICE_FACILITY', '서비스·시설관리|Services · Facility Management|サービス・施設管理|服务·设施管理|服務·設施管理|Servicios · Gestión de instalaciones|Services · Gestion des installations|Dienstleistungen · Facility-Management|Serviços · Gestão de instalações|บริการ · บริหารอาคารสถานที่|Dịch vụ · Quản lý cơ sở'],
    ['SERVICE_ETC', '서비스·기타|Services · Other|サービス・その他|服务·其他|服務·其他|Servicios · Otros|Services · Autres|Dienstleistungen · Sonstiges|Serviços · Outros|บริการ · อื่น ๆ|Dịch vụ · Khác'],
    ['MFG_ETC', '제조·기타|Manufacturing · Other|製造・その他|制造·其他|製造·其他|Manufactura · Otros|Industrie · Autres|Fertigung · Sonstiges|Manufatura · Outros|การผลิต · อื่น ๆ|Sản xuất · Khác'],
    ['DIST_SALES', '유통·판매|Distribution · Retail|流通・販売|流通·销售|流通·銷售|Distribución · Venta minorista|Distribution · Vente|Handel · Verkauf|Distribuição · Varejo|ค้าส่งค้าปลีก · การขาย|Phân phối · Bán lẻ'],
    ['DIST_LOGISTICS', '유통·물류|Distribution · Logistics|流通・物流|流通·物流|流通·物流|Distribución · Logística|Distribution · Logistique|Handel · Logistik|Distribuição · Logística|ค้าส่งค้าปลีก · โลจิสติกส์|Phân phối · Hậu cần'],
    ['DIST_ETC', '유통·기타|Distribution · Other|流通・その他|流通·其他|流通·其他|Distribución · Otros|Distribution · Autres|Handel · Sonstiges|Distribuição · Outros|ค้าส่งค้าปลีก · อื่น ๆ|Phân phối · Khác'],
    ['MEDICAL_HOSPITAL', '의료·병원|Medical · Hospitals|医療・病院|医疗·医院|醫療·醫院|Salud · Hospitales|Santé · Hôpitaux|Medizin · Krankenhäuser|Saúde · Hospitais|การแพทย์ · โรงพยาบาล|Y tế · Bệnh viện'],
    ['MEDICAL_BIO', '의료·바이오|Medical · Biotech|医療・バイオ|医疗·生物|醫療·生技|Salud · Biotecnología|Santé · Biotech|Medizin · Biotech|Saúde · Biotecnologia|การแพทย์ · เทคโนโลยีชีวภาพ|Y tế · Công nghệ sinh học'],
    ['CONST_CONSTRUCTION', '건설·건축|Construction · Building|建設・建築|建筑·施工|營建·建築|Construcción · Edificación|Construction · Bâtiment|Bau · Hochbau|Construção · Edificações|ก่อสร้าง · อาคาร|Xây dựng · Công trình'],
  ],
  'event-categories': [
    ['MARKET', '마켓|Market|マーケット|市集|市集|Mercado|Marché|Markt|Feira de mercado|ตลาดนัด|Chợ phiên'],
    ['FAIR', '박람회|Fair|展示会|博览会|博覽會|Feria|Salon|Messe|Feira|งานแสดงสินค้า|Hội chợ'],
    ['CONFERENCE', '컨퍼런스|Conference|カンファレンス|会议|研討會|Conferencia|Conférence|Konferenz|Conferência|การประชุม|Hội nghị'],
    ['NETWORKING', '네트워킹|Networking|交流会|社交活动|交流活動|Networking|Réseautage|Networking|Networking|งานสร้างเครือข่าย|Kết nối'],
    ['BUSINESS', '비즈니스|Business|ビジネス|商务|商務|Negocios|Affaires|Business|Negócios|ธุรกิจ|Kinh doanh'],
    ['COMPETITION', '공모전|Competition|コンテスト|竞赛|競賽|Concurso|Concours|Wettbewerb|Competição|การแข่งขัน|Cuộc thi'],
    ['LIFESTYLE', '라이프스타일|Lifestyle|ライフスタイル|生活方式|生活風格|Estilo de vida|Art de vivre|Lifestyle|Estilo de vida|ไลฟ์สไตล์|Phong cách sống'],
  ],
  'event-subjects': [
    ['WEB3', '웹3|Web3|Web3|Web3|Web3|Web3|Web3|Web3|Web3|เว็บ 3|Web3'],
    ['TECHNOLOGY', '기술|Technology|テクノロジー|技术|科技|Tecnología|Technologie|Technologie|Tecnologia|เทคโนโลยี|Công nghệ'],
    ['PRODUCT', '프로덕트|Product|プロダクト|产品|產品|Producto|Produit|Produkt|Produto|ผลิตภัณฑ์|Sản phẩm'],
    ['FINANCE', '금융|Finance|金融|金融|金融|Finanzas|Finance|Finanzen|Finanças|การเงิน|Tài chính'],
    ['HUMANITIES', '인문|Humanities|人文|人文|人文|Humanidades|Sciences humaines|Geisteswissenschaften|Humanidades|มนุษยศาสตร์|Nhân văn'],
    ['BUSINESS', '비즈니스|Business|ビジネス|商业|商業|Negocios|Affaires|Business|Negócios|ธุรกิจ|Kinh doanh'],
    ['CULTURE', '문화|Culture|カルチャー|文化|文化|Cultura|Culture|Kultur|Cultura|วัฒนธรรม|Văn hóa'],
  ],
};

/**
 * The groups of job industries, in display order: an industry's group is its code up to the first `_` (IT_AI is in
 * IT). GET /api/v1/codes/job-industries lists the groups with their industries as `children`; companies carry the
 * industries, never a group.
 */
export const INDUSTRY_GROUPS: Array<[code: string, labels: string]> = [
  ['IT', 'IT·인터넷|IT & Internet|IT・インターネット|IT与互联网|IT與網路|TI e internet|Informatique et Internet|IT und Internet|TI e internet|ไอทีและอินเทอร์เน็ต|CNTT và Internet'],
  ['FIN', '금융|Finance|金融|金融|金融|Finanzas|Finance|Finanzen|Finanças|การเงิน|Tài chính'],
  ['MEDIA', '미디어·디자인|Media & Design|メディア・デザイン|传媒与设计|媒體與設計|Medios y diseño|Médias et design|Medien und Design|Mídia e design|สื่อและการออกแบบ|Truyền thông và thiết kế'],
  ['SERVICE', '서비스|Services|サービス|服务|服務|Servicios|Services|Dienstleistungen|Serviços|บริการ|Dịch vụ'],
  ['MFG', '제조|Manufacturing|製造|制造|製造|Manufactura|Industrie|Fertigung|Manufatura|การผลิต|Sản xuất'],
  ['DIST', '유통·무역|Distribution & Trade|流通・貿易|流通与贸易|流通與貿易|Distribución y comercio|Distribution et commerce|Handel und Vertrieb|Distribuição e comércio|ค้าส่งค้าปลีกและการค้า|Phân phối và thương mại'],
  ['MEDICAL', '의료·바이오|Medical & Bio|医療・バイオ|医疗与生物|醫療與生技|Salud y biotecnología|Santé et biotech|Medizin und Biotech|Saúde e biotecnologia|การแพทย์และชีวภาพ|Y tế và sinh học'],
  ['CONST', '건설|Construction|建設|建筑|營建|Construcción|Construction|Bauwesen|Construção|การก่อสร้าง|Xây dựng'],
];

/** The group of a job industry code (INDUSTRY_GROUPS). */
export const industryGroupOf = (code: string): string => code.split('_')[0]!;

/**
 * What a code means beyond its label, in the 11 locales (same layout as the labels), where the real service gives
 * one: seniorities by experience, event categories and subjects by the kinds of event they gather. Every other
 * entry's description is the empty string.
 */
export const CODE_DESCRIPTIONS: Partial<Record<CatalogName, Record<string, string>>> = {
  seniorities: {
    BEGINNER: '인턴이거나 실무 경력이 없음|Internship or no professional experience yet|インターン、または実務経験なし|实习或尚无工作经验|實習或尚無工作經驗|Prácticas o sin experiencia profesional|Stage ou sans expérience professionnelle|Praktikum oder noch ohne Berufserfahrung|Estágio ou sem experiência profissional|ฝึกงานหรือยังไม่มีประสบการณ์ทำงาน|Thực tập hoặc chưa có kinh nghiệm làm việc',
    JUNIOR: '기본 업무 수행 (경력 약 1~3년)|Carries out core tasks (about 1–3 years of experience)|基本的な業務を遂行(経験約1〜3年)|能完成基本工作(约1–3年经验)|能完成基本工作(約1–3年經驗)|Realiza las tareas básicas (unos 1–3 años de experiencia)|Réalise les tâches de base (environ 1 à 3 ans d’expérience)|Erledigt grundlegende Aufgaben (etwa 1–3 Jahre Erfahrung)|Executa as tarefas básicas (cerca de 1–3 anos de experiência)|ทำงานพื้นฐานได้ (ประสบการณ์ประมาณ 1–3 ปี)|Thực hiện công việc cơ bản (khoảng 1–3 năm kinh nghiệm)',
    MIDLEVEL: '업무를 깊이 이해하고 프로젝트를 주도 (경력 약 3~7년)|Owns projects with a solid grasp of the work (about 3–7 years of experience)|業務を深く理解しプロジェクトを主導(経験約3〜7年)|深入理解业务并主导项目(约3–7年经验)|深入理解業務並主導專案(約3–7年經驗)|Lidera proyectos con buen dominio del trabajo (unos 3–7 años de experiencia)|Pilote des projets avec une bonne maîtrise du métier (environ 3 à 7 ans d’expérience)|Verantwortet Projekte mit fundiertem Verständnis (etwa 3–7 Jahre Erfahrung)|Conduz projetos com bom domínio do trabalho (cerca de 3–7 anos de experiência)|เข้าใจงานอย่างลึกซึ้งและนำโครงการได้ (ประสบการณ์ประมาณ 3–7 ปี)|Hiểu sâu công việc và dẫn dắt dự án (khoảng 3–7 năm kinh nghiệm)',
    SENIOR: '여러 사람의 팀을 이끎 (경력 약 7~15년)|Leads a team of several people (about 7–15 years of experience)|複数人のチームを率いる(経験約7〜15年)|带领多人团队(约7–15年经验)|帶領多人團隊(約7–15年經驗)|Dirige un equipo de varias personas (unos 7–15 años de experiencia)|Encadre une équipe de plusieurs personnes (environ 7 à 15 ans d’expérience)|Führt ein Team aus mehreren Personen (etwa 7–15 Jahre Erfahrung)|Lidera uma equipe de várias pessoas (cerca de 7–15 anos de experiência)|นำทีมหลายคนได้ (ประสบการณ์ประมาณ 7–15 ปี)|Dẫn dắt đội nhiều người (khoảng 7–15 năm kinh nghiệm)',
    EXECUTIVE: '경영진 수준의 의사 결정 권한 (경력 약 15년 이상)|Decides at executive level (15 years of experience or more)|経営レベルの意思決定権限(経験約15年以上)|拥有高管级决策权(约15年以上经验)|擁有高階主管級決策權(約15年以上經驗)|Toma decisiones a nivel directivo (15 años de experiencia o más)|Décide au niveau de la direction (15 ans d’expérience ou plus)|Entscheidet auf Führungsebene (15 Jahre Erfahrung oder mehr)|Decide em nível executivo (15 anos de experiência ou mais)|มีอำนาจตัดสินใจระดับผู้บริหาร (ประสบการณ์ 15 ปีขึ้นไป)|Ra quyết định ở cấp điều hành (từ 15 năm kinh nghiệm)',
  },
  'event-categories': {
    MARKET: '기간 한정 팝업·마켓|Pop-up stores and limited-time markets|期間限定のポップアップ・マーケット|限时快闪店与市集|限時快閃店與市集|Tiendas efímeras y mercados temporales|Boutiques éphémères et marchés temporaires|Pop-up-Stores und zeitlich begrenzte Märkte|Lojas pop-up e feiras temporárias|ป๊อปอัปสโตร์และตลาดชั่วคราว|Cửa hàng pop-up và chợ phiên có thời hạn',
    FAIR: '박람회·전시회|Fairs and exhibitions|展示会・博覧会|博览会与展览|博覽會與展覽|Ferias y exposiciones|Salons et expositions|Messen und Ausstellungen|Feiras e exposições|งานแสดงสินค้าและนิทรรศการ|Hội chợ và triển lãm',
    CONFERENCE: '강연·세미나·포럼|Talks, seminars and forums|講演・セミナー・フォーラム|演讲、研讨会与论坛|演講、研討會與論壇|Charlas, seminarios y foros|Conférences, séminaires et forums|Vorträge, Seminare und Foren|Palestras, seminários e fóruns|การบรรยาย สัมมนา และฟอรัม|Diễn thuyết, hội thảo và diễn đàn',
    NETWORKING: '밋업·멘토링|Meetups and mentoring|ミートアップ・メンタリング|聚会与导师交流|聚會與導師交流|Encuentros y mentorías|Rencontres et mentorat|Meetups und Mentoring|Encontros e mentoria|มีตอัปและการให้คำปรึกษา|Gặp gỡ và cố vấn',
    BUSINESS: 'IR·제품 출시 행사|Investor relations and launch days|IR・ローンチイベント|投资者路演与发布会|投資人說明會與發表會|Relaciones con inversores y presentaciones|Relations investisseurs et lancements|Investorentage und Produktstarts|Relações com investidores e lançamentos|นักลงทุนสัมพันธ์และงานเปิดตัว|Quan hệ nhà đầu tư và ra mắt sản phẩm',
    COMPETITION: '해커톤·공모전|Hackathons and contests|ハッカソン・コンテスト|黑客马拉松与竞赛|黑客松與競賽|Hackatones y concursos|Hackathons et concours|Hackathons und Wettbewerbe|Hackathons e concursos|แฮกกาธอนและการประกวด|Hackathon và cuộc thi',
    LIFESTYLE: '축제·공연·문화|Festivals, performances and culture|フェス・公演・カルチャー|节庆、演出与文化|節慶、演出與文化|Festivales, espectáculos y cultura|Festivals, spectacles et culture|Festivals, Aufführungen und Kultur|Festivais, espetáculos e cultura|เทศกาล การแสดง และวัฒนธรรม|Lễ hội, biểu diễn và văn hóa',
  },
  'event-subjects': {
    WEB3: '블록체인·암호화폐|Blockchain and crypto assets|ブロックチェーン・暗号資産|区块链与加密资产|區塊鏈與加密資產|Blockchain y criptoactivos|Blockchain et cryptoactifs|Blockchain und Krypto-Assets|Blockchain e criptoativos|บล็อกเชนและสินทรัพย์ดิจิทัล|Blockchain và tài sản mã hóa',
    TECHNOLOGY: 'AI·엔지니어링·연구|AI, engineering and research|AI・エンジニアリング・研究|人工智能、工程与研究|人工智慧、工程與研究|IA, ingeniería e investigación|IA, ingénierie et recherche|KI, Technik und Forschung|IA, engenharia e pesquisa|AI วิศวกรรม และการวิจัย|AI, kỹ thuật và nghiên cứu',
    PRODUCT: '서비스·기획·디자인·마케팅|Services, planning, design and marketing|サービス・企画・デザイン・マーケティング|服务、策划、设计与营销|服務、企劃、設計與行銷|Servicios, planificación, diseño y marketing|Services, conception, design et marketing|Services, Planung, Design und Marketing|Serviços, planejamento, design e marketing|บริการ การวางแผน การออกแบบ และการตลาด|Dịch vụ, kế hoạch, thiết kế và tiếp thị',
    FINANCE: '자산·투자·핀테크|Assets, investment and fintech|資産・投資・フィンテック|资产、投资与金融科技|資產、投資與金融科技|Activos, inversión y fintech|Actifs, investissement et fintech|Vermögen, Investitionen und Fintech|Ativos, investimentos e fintech|สินทรัพย์ การลงทุน และฟินเทค|Tài sản, đầu tư và fintech',
    HUMANITIES: '사회·기후·생명·종교·공익|Society, climate, life sciences, religion and public interest|社会・気候・生命・宗教・公益|社会、气候、生命、宗教与公益|社會、氣候、生命、宗教與公益|Sociedad, clima, ciencias de la vida, religión e interés público|Société, climat, sciences du vivant, religion et intérêt général|Gesellschaft, Klima, Biowissenschaften, Religion und Gemeinwohl|Sociedade, clima, ciências da vida, religião e interesse público|สังคม สภาพภูมิอากาศ ชีววิทยา ศาสนา และประโยชน์สาธารณะ|Xã hội, khí hậu, khoa học sự sống, tôn giáo và công ích',
    BUSINESS: '경영·전략·조직·인사·영업|Management, strategy, organizations, HR and sales|経営・戦略・組織・人事・営業|经营、战略、组织、人事与销售|經營、策略、組織、人資與業務|Gestión, estrategia, organización, RR. HH. y ventas|Gestion, stratégie, organisation, RH et ventes|Management, Strategie, Organisation, Personal und Vertrieb|Gestão, estratégia, organização, RH e vendas|การบริหาร กลยุทธ์ องค์กร ทรัพยากรบุคคล และการขาย|Quản trị, chiến lược, tổ chức, nhân sự và bán hàng',
    CULTURE: '게임·콘텐츠·예술·음식·미디어|Games, content, art, food and media|ゲーム・コンテンツ・アート・フード・メディア|游戏、内容、艺术、美食与媒体|遊戲、內容、藝術、美食與媒體|Videojuegos, contenido, arte, gastronomía y medios|Jeux, contenus, art, gastronomie et médias|Spiele, Inhalte, Kunst, Essen und Medien|Jogos, conteúdo, arte, gastronomia e mídia|เกม คอนเทนต์ ศิลปะ อาหาร และสื่อ|Trò chơi, nội dung, nghệ thuật, ẩm thực và truyền thông',
  },
};

