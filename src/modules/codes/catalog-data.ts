/**
 * The code catalogs and their labels. Each label line holds the 11 locales of the spec in LOCALES order,
 * separated by `|`. Seeded by migration 002; a later change to a catalog is a new migration.
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
    ['SOFTWARE_ENGINEERING', '소프트웨어 개발|Software Engineering|ソフトウェア開発|软件开发|軟體開發|Ingeniería de software|Génie logiciel|Softwareentwicklung|Engenharia de software|วิศวกรรมซอฟต์แวร์|Kỹ thuật phần mềm'],
    ['DATA_AI', '데이터·AI|Data & AI|データ・AI|数据与人工智能|資料與人工智慧|Datos e IA|Données et IA|Daten und KI|Dados e IA|ข้อมูลและ AI|Dữ liệu và AI'],
    ['PRODUCT_MANAGEMENT', '프로덕트 매니지먼트|Product Management|プロダクトマネジメント|产品管理|產品管理|Gestión de producto|Gestion de produit|Produktmanagement|Gestão de produto|การจัดการผลิตภัณฑ์|Quản lý sản phẩm'],
    ['DESIGN', '디자인|Design|デザイン|设计|設計|Diseño|Design|Design|Design|การออกแบบ|Thiết kế'],
    ['MARKETING', '마케팅|Marketing|マーケティング|市场营销|行銷|Marketing|Marketing|Marketing|Marketing|การตลาด|Tiếp thị'],
    ['SALES', '영업|Sales|営業|销售|業務銷售|Ventas|Ventes|Vertrieb|Vendas|ฝ่ายขาย|Bán hàng'],
    ['FINANCE', '재무·회계|Finance & Accounting|財務・会計|财务与会计|財務與會計|Finanzas y contabilidad|Finance et comptabilité|Finanzen und Buchhaltung|Finanças e contabilidade|การเงินและบัญชี|Tài chính và kế toán'],
    ['HUMAN_RESOURCES', '인사·HR|Human Resources|人事|人力资源|人力資源|Recursos humanos|Ressources humaines|Personalwesen|Recursos humanos|ทรัพยากรบุคคล|Nhân sự'],
    ['OPERATIONS', '운영|Operations|オペレーション|运营|營運|Operaciones|Opérations|Betrieb|Operações|ปฏิบัติการ|Vận hành'],
    ['CUSTOMER_SUCCESS', '고객 성공|Customer Success|カスタマーサクセス|客户成功|客戶成功|Éxito del cliente|Succès client|Kundenerfolg|Sucesso do cliente|ความสำเร็จของลูกค้า|Thành công khách hàng'],
    ['LEGAL', '법무|Legal|法務|法务|法務|Asesoría jurídica|Juridique|Recht|Jurídico|กฎหมาย|Pháp chế'],
    ['MEDIA_CONTENT', '미디어·콘텐츠|Media & Content|メディア・コンテンツ|媒体与内容|媒體與內容|Medios y contenido|Médias et contenu|Medien und Inhalte|Mídia e conteúdo|สื่อและคอนเทนต์|Truyền thông và nội dung'],
  ],
  'employment-types': [
    ['FULL_TIME', '정규직|Full-time|正社員|全职|全職|Tiempo completo|Temps plein|Vollzeit|Tempo integral|งานประจำ|Toàn thời gian'],
    ['CONTRACT', '계약직|Contract|契約社員|合同工|約聘|Contrato temporal|Contrat à durée déterminée|Befristet|Contrato temporário|สัญญาจ้าง|Hợp đồng'],
    ['INTERN', '인턴|Internship|インターン|实习|實習|Prácticas|Stage|Praktikum|Estágio|ฝึกงาน|Thực tập'],
    ['PART_TIME', '파트타임|Part-time|パートタイム|兼职|兼職|Medio tiempo|Temps partiel|Teilzeit|Meio período|งานพาร์ทไทม์|Bán thời gian'],
    ['FREELANCE', '프리랜서|Freelance|フリーランス|自由职业|自由工作者|Autónomo|Indépendant|Freiberuflich|Freelancer|ฟรีแลนซ์|Tự do'],
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
    ['IT_SOFTWARE', 'IT·소프트웨어|IT & Software|IT・ソフトウェア|IT与软件|資訊與軟體|TI y software|Informatique et logiciels|IT und Software|TI e software|ไอทีและซอฟต์แวร์|CNTT và phần mềm'],
    ['FINANCE_FINTECH', '금융·핀테크|Finance & Fintech|金融・フィンテック|金融与金融科技|金融與金融科技|Finanzas y fintech|Finance et fintech|Finanzen und Fintech|Finanças e fintech|การเงินและฟินเทค|Tài chính và fintech'],
    ['COMMERCE_RETAIL', '커머스·유통|Commerce & Retail|コマース・小売|电商与零售|電商與零售|Comercio y venta minorista|Commerce et distribution|Handel|Comércio e varejo|พาณิชย์และค้าปลีก|Thương mại và bán lẻ'],
    ['MANUFACTURING', '제조|Manufacturing|製造|制造业|製造業|Manufactura|Industrie manufacturière|Fertigung|Manufatura|การผลิต|Sản xuất'],
    ['HEALTHCARE', '헬스케어·바이오|Healthcare & Bio|ヘルスケア・バイオ|医疗与生物|醫療與生技|Salud y biotecnología|Santé et biotech|Gesundheit und Biotech|Saúde e biotecnologia|สุขภาพและชีวภาพ|Y tế và sinh học'],
    ['EDUCATION', '교육|Education|教育|教育|教育|Educación|Éducation|Bildung|Educação|การศึกษา|Giáo dục'],
    ['MEDIA_ENTERTAINMENT', '미디어·엔터테인먼트|Media & Entertainment|メディア・エンタメ|传媒与娱乐|媒體與娛樂|Medios y entretenimiento|Médias et divertissement|Medien und Unterhaltung|Mídia e entretenimento|สื่อและบันเทิง|Truyền thông và giải trí'],
    ['MOBILITY_LOGISTICS', '모빌리티·물류|Mobility & Logistics|モビリティ・物流|出行与物流|移動與物流|Movilidad y logística|Mobilité et logistique|Mobilität und Logistik|Mobilidade e logística|การเดินทางและโลจิสติกส์|Di chuyển và hậu cần'],
  ],
  'event-categories': [
    ['CONFERENCE', '컨퍼런스|Conference|カンファレンス|会议|研討會|Conferencia|Conférence|Konferenz|Conferência|การประชุม|Hội nghị'],
    ['MEETUP', '밋업|Meetup|ミートアップ|聚会|聚會|Encuentro|Rencontre|Meetup|Encontro|มีตอัพ|Gặp mặt'],
    ['WORKSHOP', '워크숍|Workshop|ワークショップ|工作坊|工作坊|Taller|Atelier|Workshop|Oficina|เวิร์กช็อป|Hội thảo thực hành'],
    ['WEBINAR', '웨비나|Webinar|ウェビナー|网络研讨会|線上研討會|Seminario web|Webinaire|Webinar|Webinar|สัมมนาออนไลน์|Hội thảo trực tuyến'],
    ['NETWORKING', '네트워킹|Networking|交流会|社交活动|交流活動|Networking|Réseautage|Networking|Networking|งานสร้างเครือข่าย|Kết nối'],
    ['HIRING_EVENT', '채용 행사|Hiring event|採用イベント|招聘活动|徵才活動|Evento de contratación|Événement de recrutement|Recruiting-Event|Evento de recrutamento|งานรับสมัครงาน|Sự kiện tuyển dụng'],
  ],
  'event-subjects': [
    ['DEVELOPMENT', '개발|Development|開発|开发|開發|Desarrollo|Développement|Entwicklung|Desenvolvimento|การพัฒนา|Phát triển'],
    ['DATA', '데이터|Data|データ|数据|資料|Datos|Données|Daten|Dados|ข้อมูล|Dữ liệu'],
    ['DESIGN', '디자인|Design|デザイン|设计|設計|Diseño|Design|Design|Design|การออกแบบ|Thiết kế'],
    ['MARKETING', '마케팅|Marketing|マーケティング|营销|行銷|Marketing|Marketing|Marketing|Marketing|การตลาด|Tiếp thị'],
    ['CAREER', '커리어|Career|キャリア|职业发展|職涯|Carrera profesional|Carrière|Karriere|Carreira|อาชีพ|Sự nghiệp'],
    ['STARTUP', '스타트업|Startups|スタートアップ|创业|新創|Startups|Start-up|Startups|Startups|สตาร์ทอัพ|Khởi nghiệp'],
    ['LEADERSHIP', '리더십|Leadership|リーダーシップ|领导力|領導力|Liderazgo|Leadership|Führung|Liderança|ภาวะผู้นำ|Lãnh đạo'],
    ['AI', 'AI·머신러닝|AI & Machine Learning|AI・機械学習|人工智能与机器学习|人工智慧與機器學習|IA y aprendizaje automático|IA et apprentissage automatique|KI und maschinelles Lernen|IA e aprendizado de máquina|AI และแมชชีนเลิร์นนิง|AI và học máy'],
  ],
};

/** Codes of one catalog, in display order. */
export function catalogCodes(name: CatalogName): string[] {
  return CATALOG_DATA[name].map(([code]) => code);
}
