/**
 * The demo companies' profiles (docs/companies.md): each company's description in Korean with an English translation
 * (or the other way round), industries, size in people, founding year, funding stage, website, links, main place and
 * offices. Two of them give only what every company has (name, industry, size), as many real companies do.
 */
import type { COMPANIES } from './vocabulary.js';

type Handle = (typeof COMPANIES)[number]['handle'];

interface Place {
  country: string;
  region: string;
  locality: string;
  address: string;
  latitude: number;
  longitude: number;
}

export interface DemoCompanyProfile {
  /** The description in Korean (its own language) and its English translation (reads in English show it). */
  description: { ko: string; en: string };
  industries: string[];
  employeeCount: number;
  foundedYear: number;
  fundingStage: string | null;
  website: string;
  links: Array<{ type: string; url: string }>;
  location: Place;
  offices: Array<{
    name: string;
    country: string;
    region: string | null;
    locality: string | null;
    address: string | null;
  }>;
}

const SEOUL_GANGNAM: Place = {
  country: 'KR',
  region: '서울',
  locality: '강남구',
  address: '테헤란로 152',
  latitude: 37.5003,
  longitude: 127.0365,
};
const PANGYO: Place = {
  country: 'KR',
  region: '경기',
  locality: '성남시 분당구',
  address: '판교역로 235',
  latitude: 37.4012,
  longitude: 127.1086,
};
const BUSAN: Place = {
  country: 'KR',
  region: '부산',
  locality: '해운대구',
  address: '센텀중앙로 97',
  latitude: 35.1696,
  longitude: 129.1313,
};
const TOKYO: Place = {
  country: 'JP',
  region: 'Tokyo',
  locality: 'Shibuya',
  address: '2-21-1 Shibuya',
  latitude: 35.6591,
  longitude: 139.7037,
};
const SEOUL_JUNG: Place = {
  country: 'KR',
  region: '서울',
  locality: '중구',
  address: '세종대로 110',
  latitude: 37.5663,
  longitude: 126.9779,
};

const office = (name: string, p: Place) => ({
  name,
  country: p.country,
  region: p.region,
  locality: p.locality,
  address: p.address,
});

/** Profiles by handle; a company not named here gives only what every company has. */
export const DEMO_COMPANY_PROFILES: Partial<Record<Handle, DemoCompanyProfile>> = {
  'acme-labs': {
    description: {
      ko: '애크미랩스는 클라우드 인프라를 위한 개발자 도구를 만듭니다. 매일 배포하는 팀을 위한 배포 파이프라인, 관측성, 비용 관리를 제공합니다.',
      en: 'Acme Labs builds developer tools for cloud infrastructure: deployment pipelines, observability and cost control for teams that ship every day.',
    },
    industries: ['IT_SOFTWARE', 'IT_AI'],
    employeeCount: 180,
    foundedYear: 2016,
    fundingStage: 'SERIES_C',
    website: 'https://acme-labs.example.com',
    links: [
      { type: 'LINKEDIN', url: 'https://www.linkedin.com/company/acme-labs-example' },
      { type: 'GITHUB', url: 'https://github.com/acme-labs-example' },
      { type: 'CAREERS', url: 'https://acme-labs.example.com/careers' },
    ],
    location: PANGYO,
    offices: [office('HQ', PANGYO), office('Tokyo office', TOKYO)],
  },
  'nova-fintech': {
    description: {
      ko: '노바핀테크는 소상공인을 위한 간편 결제와 정산 서비스를 운영하는 핀테크 스타트업입니다.',
      en: 'Nova Fintech is a fintech startup running simple payments and settlement for small businesses.',
    },
    industries: ['FIN_FINTECH'],
    employeeCount: 45,
    foundedYear: 2021,
    fundingStage: 'SERIES_A',
    website: 'https://nova-fintech.example.com',
    links: [{ type: 'BLOG', url: 'https://blog.nova-fintech.example.com' }],
    location: SEOUL_GANGNAM,
    offices: [office('본사', SEOUL_GANGNAM)],
  },
  'hanbit-soft': {
    description: {
      ko: '한빛소프트웨어는 기업용 협업 소프트웨어와 전자결재 솔루션을 20년 넘게 만들어 온 소프트웨어 회사입니다.',
      en: 'Hanbit Software has built enterprise collaboration software and electronic approval solutions for over twenty years.',
    },
    industries: ['IT_SOFTWARE'],
    employeeCount: 1200,
    foundedYear: 2003,
    fundingStage: 'PUBLIC',
    website: 'https://hanbit-soft.example.com',
    links: [
      { type: 'LINKEDIN', url: 'https://www.linkedin.com/company/hanbit-soft-example' },
      { type: 'YOUTUBE', url: 'https://www.youtube.com/@hanbit-soft-example' },
    ],
    location: SEOUL_JUNG,
    offices: [office('본사', SEOUL_JUNG), office('부산 연구소', BUSAN)],
  },
  'sakura-commerce': {
    description: {
      ko: '사쿠라커머스는 한국과 일본 브랜드를 아시아 전역의 쇼핑객과 잇는 국경 간 마켓플레이스를 운영합니다.',
      en: 'Sakura Commerce runs a cross-border marketplace connecting Korean and Japanese brands with shoppers across Asia.',
    },
    industries: ['DIST_SALES', 'IT_SOFTWARE'],
    employeeCount: 5400,
    foundedYear: 2009,
    fundingStage: 'ACQUIRED',
    website: 'https://sakura-commerce.example.com',
    links: [{ type: 'X', url: 'https://x.com/sakura_commerce_example' }],
    location: TOKYO,
    offices: [office('Head office', TOKYO), office('서울 지사', SEOUL_GANGNAM)],
  },
  'blue-mobility': {
    description: {
      ko: '블루모빌리티는 전기 자전거와 킥보드 공유 서비스로 도시의 마지막 1km 이동을 바꿉니다.',
      en: 'Blue Mobility changes the last kilometre of city travel with shared e-bikes and scooters.',
    },
    industries: ['DIST_LOGISTICS'],
    employeeCount: 260,
    foundedYear: 2018,
    fundingStage: 'SERIES_B',
    website: 'https://blue-mobility.example.com',
    links: [],
    location: BUSAN,
    offices: [office('본사', BUSAN)],
  },
  'green-health': {
    description: {
      ko: '그린헬스케어는 병원과 환자를 잇는 원격 진료와 건강 기록 플랫폼을 만듭니다.',
      en: 'Green Healthcare builds a telemedicine and health-record platform linking hospitals and patients.',
    },
    industries: ['MEDICAL_HOSPITAL', 'IT_SOFTWARE'],
    employeeCount: 70,
    foundedYear: 2020,
    fundingStage: 'SEED',
    website: 'https://green-health.example.com',
    links: [],
    location: SEOUL_GANGNAM,
    offices: [],
  },
  'data-bridge': {
    description: {
      ko: '데이터브릿지는 제조와 물류 데이터를 위한 AI 분석 플랫폼을 만드는 회사입니다. 머신러닝 모델로 수요를 예측합니다.',
      en: 'Data Bridge makes an AI analytics platform for manufacturing and logistics data, forecasting demand with machine learning models.',
    },
    industries: ['IT_AI', 'IT_SOFTWARE'],
    employeeCount: 38,
    foundedYear: 2022,
    fundingStage: 'PRE_SEED',
    website: 'https://data-bridge.example.com',
    links: [{ type: 'GITHUB', url: 'https://github.com/data-bridge-example' }],
    location: PANGYO,
    offices: [office('판교 본사', PANGYO)],
  },
  'edu-next': {
    description: {
      ko: '에듀넥스트는 초중고 학생을 위한 온라인 학습 서비스와 교사용 수업 도구를 운영합니다.',
      en: 'EduNext runs online learning for school students and lesson tools for teachers.',
    },
    industries: ['SERVICE_EDUCATION'],
    employeeCount: 320,
    foundedYear: 2012,
    fundingStage: 'BOOTSTRAPPED',
    website: 'https://edu-next.example.com',
    links: [{ type: 'INSTAGRAM', url: 'https://www.instagram.com/edu_next_example' }],
    location: SEOUL_JUNG,
    offices: [office('본사', SEOUL_JUNG)],
  },
  'seoul-bank': {
    description: {
      ko: '서울뱅크는 개인과 기업 고객에게 예금, 대출, 모바일 뱅킹을 제공하는 은행입니다.',
      en: 'Seoul Bank offers deposits, loans and mobile banking to personal and business customers.',
    },
    industries: ['FIN_FINTECH'],
    employeeCount: 8200,
    foundedYear: 1967,
    fundingStage: 'PUBLIC',
    website: 'https://seoul-bank.example.com',
    links: [{ type: 'LINKEDIN', url: 'https://www.linkedin.com/company/seoul-bank-example' }],
    location: SEOUL_JUNG,
    offices: [office('본점', SEOUL_JUNG), office('강남 센터', SEOUL_GANGNAM), office('부산 지점', BUSAN)],
  },
  'k-logistics': {
    description: {
      ko: '케이로지스틱스는 주요 도시마다 당일 배송 허브를 두고 전국으로 소포와 화물을 운송합니다.',
      en: 'K-Logistics moves parcels and freight across Korea with same-day delivery hubs in every major city.',
    },
    industries: ['DIST_LOGISTICS'],
    employeeCount: 2100,
    foundedYear: 1998,
    fundingStage: null,
    website: 'https://k-logistics.example.com',
    links: [],
    location: BUSAN,
    offices: [office('Busan hub', BUSAN), office('Seoul hub', SEOUL_JUNG)],
  },
};
