/**
 * The code catalogs and their labels. Each label line holds the 11 locales of the spec in LOCALES order,
 * separated by `|`. The codes are the real service's: the enums its published document declares (employment
 * types, event categories and subjects, seniorities, company sizes, work types), and for job categories and
 * industries the codes seen in its responses, with more in their style (docs/api.md, "Catalogs"). Seeded by
 * migration 002 and rewritten by 019 (a later change to a catalog is a new migration that calls
 * `replaceCatalogs`).
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

/** The catalogs whose codes the reference declares as enums: the request and response schemas use these values. */
export const SENIORITIES = ['BEGINNER', 'JUNIOR', 'MIDLEVEL', 'SENIOR', 'EXECUTIVE'] as const;
export const EMPLOYMENT_TYPES = ['FULL_TIME', 'FIXED_TERM', 'COMMISSIONED', 'INTERN', 'FREELANCER', 'SELF_EMPLOYED'] as const;
export const EVENT_CATEGORIES = ['MARKET', 'FAIR', 'CONFERENCE', 'NETWORKING', 'BUSINESS', 'COMPETITION', 'LIFESTYLE'] as const;
export const EVENT_SUBJECTS = ['WEB3', 'TECHNOLOGY', 'PRODUCT', 'FINANCE', 'HUMANITIES', 'BUSINESS', 'CULTURE'] as const;

/** The stored values that are codes of `order`, once each, in its order (what a response lists). */
export function inCodeOrder<T extends string>(stored: readonly string[], order: readonly T[]): T[] {
  return order.filter((code) => stored.includes(code));
}

/** Codes of one catalog, in display order. */
export function catalogCodes(name: CatalogName): string[] {
  return CATALOG_DATA[name].map(([code]) => code);
}
