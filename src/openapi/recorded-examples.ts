/** Written by `npm run examples:record` (scripts/record-examples.ts): the demo's answers, by operationId. */
export const RECORDED_EXAMPLES: Record<string, unknown> = {
  "searchPosts": {
    "totalItems": 301,
    "totalPages": 151,
    "page": 1,
    "pageSize": 2,
    "items": [
      {
        "postId": 300,
        "author": {
          "type": "MEMBER",
          "id": "member-05",
          "name": "정시우",
          "imageUrl": "https://api.example.com/media/demo/avatars/member-05.png",
          "certificated": false
        },
        "content": "We published a post on the Pixel Studio engineering blog about improving PostgreSQL performance. Response times dropped by half. @moon-factory",
        "images": [],
        "og": null,
        "stats": {
          "likeCount": null,
          "commentCount": 40
        },
        "owned": false,
        "webUrl": "https://api.example.com/posts/300",
        "postedAt": "2026-12-01T02:17"
      },
      {
        "postId": 299,
        "author": {
          "type": "MEMBER",
          "id": "member-18",
          "name": "강서연",
          "imageUrl": "https://api.example.com/media/demo/avatars/member-18.png",
          "certificated": false
        },
        "content": "In today's team retrospective we shared our experience adopting PostgreSQL. Small experiments made a big difference.",
        "images": [
          {
            "id": 187,
            "url": "https://api.example.com/media/demo/posts/299-1.png",
            "width": 800,
            "height": 600
          },
          {
            "id": 188,
            "url": "https://api.example.com/media/demo/posts/299-2.png",
            "width": 1080,
            "height": 1080
          }
        ],
        "og": null,
        "stats": {
          "likeCount": 174,
          "commentCount": 31
        },
        "owned": false,
        "webUrl": "https://api.example.com/posts/299",
        "postedAt": "2026-11-30T22:50"
      }
    ]
  },
  "getPost": {
    "postId": 1,
    "author": {
      "type": "COMPANY",
      "id": "data-bridge",
      "name": "데이터브릿지",
      "imageUrl": "https://api.example.com/media/demo/logos/data-bridge.png",
      "certificated": true
    },
    "content": "오늘 팀 회고에서 GA4 도입 경험을 나눴습니다. 작은 실험이 큰 변화를 만들었어요. @hanbit-soft @member-02",
    "images": [
      {
        "id": 1,
        "url": "https://api.example.com/media/demo/posts/1-1.png",
        "width": 1080,
        "height": 1080
      }
    ],
    "og": null,
    "stats": {
      "likeCount": 313,
      "commentCount": null
    },
    "owned": false,
    "webUrl": "https://api.example.com/posts/1",
    "postedAt": "2026-08-03T09:29:00.000Z",
    "mentions": {
      "companies": [
        {
          "name": "한빛소프트웨어",
          "id": "hanbit-soft"
        }
      ],
      "users": [
        {
          "name": "이서윤",
          "id": "member-02"
        }
      ]
    },
    "repostedPostDeleted": false,
    "updatedAt": "2026-08-03T09:29:00.000Z",
    "language": "ko",
    "repostedPost": null
  },
  "searchJobs": {
    "totalItems": 119,
    "totalPages": 60,
    "page": 1,
    "pageSize": 2,
    "items": [
      {
        "jobId": 199,
        "title": "AI engineer (Go)",
        "seniorities": [
          "SENIOR"
        ],
        "employmentTypes": [
          "COMMISSIONED",
          "SELF_EMPLOYED"
        ],
        "company": {
          "name": "노바핀테크",
          "id": "nova-fintech",
          "logoUrl": "https://api.example.com/media/demo/logos/nova-fintech.png",
          "industry": "FIN_FINTECH",
          "size": "SMALL"
        },
        "webUrl": "https://api.example.com/jobs/199",
        "subtitle": "Build with Go in Pangyo",
        "jobCategory": "dataAi",
        "workType": "REMOTE",
        "endAt": null,
        "location": {
          "country": "KR",
          "region": "인천",
          "locality": "연수구",
          "address": "연수구 106",
          "latitude": 37.408,
          "longitude": 126.6427
        },
        "salary": {
          "min": 87000000,
          "max": 99000000,
          "currency": "KRW",
          "period": "YEAR"
        }
      },
      {
        "jobId": 194,
        "title": "프론트엔드개발자 (PostgreSQL)",
        "seniorities": [
          "MIDLEVEL"
        ],
        "employmentTypes": [
          "FULL_TIME"
        ],
        "company": {
          "name": "K-Logistics",
          "id": "k-logistics",
          "logoUrl": "https://api.example.com/media/demo/logos/k-logistics.png",
          "industry": "DIST_LOGISTICS",
          "size": "LARGE"
        },
        "webUrl": "https://api.example.com/jobs/194",
        "subtitle": "PostgreSQL로 판교에서 함께 만들어요",
        "jobCategory": "dev",
        "workType": "ONSITE",
        "endAt": "2026-12-27T09:00",
        "location": {
          "country": "KR",
          "region": "경기",
          "locality": "성남시 분당구",
          "address": "성남시 분당구 110",
          "latitude": 37.4198,
          "longitude": 127.1013
        },
        "salary": {
          "min": 75000000,
          "max": 93000000,
          "currency": "KRW",
          "period": "YEAR"
        }
      }
    ]
  },
  "suggestJobSearches": [
    {
      "text": "backend",
      "type": "KEYWORD",
      "count": 4
    },
    {
      "text": "backend developer (Figma)",
      "type": "TITLE",
      "count": 1
    },
    {
      "text": "backend developer (Go)",
      "type": "TITLE",
      "count": 1
    }
  ],
  "getJob": {
    "jobId": 1,
    "status": "published",
    "hiring": true,
    "title": "데이터엔지니어 (Kubernetes)",
    "seniorities": [
      "MIDLEVEL"
    ],
    "employmentTypes": [
      "FIXED_TERM"
    ],
    "jobImages": [],
    "allowRemote": true,
    "company": {
      "name": "Acme Labs",
      "id": "acme-labs",
      "logoUrl": "https://api.example.com/media/demo/logos/acme-labs.png",
      "industry": "IT_SOFTWARE",
      "size": "MEDIUM"
    },
    "applyMethod": {
      "type": "PLATFORM",
      "url": "https://api.example.com/jobs/1/apply"
    },
    "webUrl": "https://api.example.com/jobs/1",
    "createdAt": "2026-11-15T09:00:00.000Z",
    "subtitle": "Kubernetes로 부산에서 함께 만들어요",
    "jobCategory": "dataAi",
    "workType": "REMOTE",
    "language": "ko",
    "description": "Acme Labs는 Kubernetes로 수백만 명이 쓰는 서비스를 만듭니다. 데이터엔지니어로서 제품의 핵심을 함께 설계해 주세요.",
    "duty": "Kubernetes 기반 서비스 설계와 운영, 코드 리뷰와 기술 문서 작성",
    "minimumQualification": "Kubernetes 실무 경험 2년 이상",
    "preferredQualification": "대규모 트래픽 서비스 운영 경험",
    "benefit": "유연 근무, 교육비 지원, 최신 장비 제공",
    "hireProcess": "서류 전형 → 기술 인터뷰 → 컬처 인터뷰 → 처우 협의",
    "hireNotes": "수습 기간 3개월이 있습니다.",
    "startAt": "2026-11-16T09:00:00.000Z",
    "endAt": "2027-01-03T09:00:00.000Z",
    "location": null,
    "salary": {
      "min": 31000000,
      "max": 36000000,
      "currency": "KRW",
      "period": "YEAR"
    }
  },
  "searchCompanies": {
    "totalItems": 12,
    "totalPages": 6,
    "page": 1,
    "pageSize": 2,
    "items": [
      {
        "companyId": "acme-labs",
        "name": "Acme Labs",
        "logoUrl": "https://api.example.com/media/demo/logos/acme-labs.png",
        "industry": "IT_SOFTWARE",
        "industryName": "IT · Software",
        "size": "MEDIUM",
        "description": "Acme Labs builds developer tools for cloud infrastructure: deployment pipelines, observability and cost control for teams that ship every day.",
        "location": {
          "country": "KR",
          "region": "경기",
          "locality": "성남시 분당구",
          "address": "판교역로 235",
          "latitude": 37.4012,
          "longitude": 127.1086
        },
        "employeeCount": 180,
        "foundedYear": 2016,
        "fundingStage": "SERIES_C",
        "website": "https://acme-labs.example.com",
        "hiringJobCount": 23,
        "certificated": true,
        "webUrl": "https://api.example.com/companies/acme-labs"
      },
      {
        "companyId": "sakura-commerce",
        "name": "Sakura Commerce",
        "logoUrl": "https://api.example.com/media/demo/logos/sakura-commerce.png",
        "industry": "DIST_SALES",
        "industryName": "Distribution · Retail",
        "size": "HUGE",
        "description": "Sakura Commerce runs a cross-border marketplace connecting Korean and Japanese brands with shoppers across Asia.",
        "location": {
          "country": "JP",
          "region": "Tokyo",
          "locality": "Shibuya",
          "address": "2-21-1 Shibuya",
          "latitude": 35.6591,
          "longitude": 139.7037
        },
        "employeeCount": 5400,
        "foundedYear": 2009,
        "fundingStage": "ACQUIRED",
        "website": "https://sakura-commerce.example.com",
        "hiringJobCount": 14,
        "certificated": false,
        "webUrl": "https://api.example.com/companies/sakura-commerce"
      }
    ]
  },
  "suggestCompanies": [
    {
      "text": "데이터브릿지",
      "type": "COMPANY",
      "count": 1
    }
  ],
  "getCompany": {
    "companyId": "data-bridge",
    "name": "데이터브릿지",
    "logoUrl": "https://api.example.com/media/demo/logos/data-bridge.png",
    "industry": "IT_AI",
    "industryName": "IT · Artificial Intelligence",
    "size": "SMALL",
    "description": "Data Bridge makes an AI analytics platform for manufacturing and logistics data, forecasting demand with machine learning models.",
    "location": {
      "country": "KR",
      "region": "경기",
      "locality": "성남시 분당구",
      "address": "판교역로 235",
      "latitude": 37.4012,
      "longitude": 127.1086
    },
    "employeeCount": 38,
    "foundedYear": 2022,
    "fundingStage": "PRE_SEED",
    "website": "https://data-bridge.example.com",
    "hiringJobCount": 12,
    "certificated": true,
    "webUrl": "https://api.example.com/companies/data-bridge",
    "industries": [
      {
        "code": "IT_AI",
        "name": "IT · Artificial Intelligence"
      },
      {
        "code": "IT_SOFTWARE",
        "name": "IT · Software"
      }
    ],
    "links": [
      {
        "type": "GITHUB",
        "url": "https://github.com/data-bridge-example"
      }
    ],
    "offices": [
      {
        "name": "판교 본사",
        "country": "KR",
        "region": "경기",
        "locality": "성남시 분당구",
        "address": "판교역로 235"
      }
    ],
    "language": "en",
    "createdAt": "2025-11-03T09:00:00.000Z",
    "updatedAt": "2025-11-03T09:00:00.000Z"
  },
  "searchProfiles": {
    "totalItems": 22,
    "totalPages": 11,
    "page": 1,
    "pageSize": 2,
    "items": [
      {
        "handle": "member-20",
        "name": "Sora Tanaka",
        "imageUrl": null,
        "headline": "backend developer at 에듀넥스트",
        "skills": [
          "TypeScript",
          "Kotlin",
          "Communication"
        ],
        "location": {
          "country": "KR",
          "region": "서울",
          "latitude": 37.5,
          "longitude": 127
        },
        "certificated": false,
        "webUrl": "https://api.example.com/profiles/member-20",
        "currentPosition": {
          "title": "backend developer",
          "companyName": "에듀넥스트",
          "companyId": "edu-next"
        },
        "openToWork": false
      },
      {
        "handle": "member-10",
        "name": "임하은",
        "imageUrl": "https://api.example.com/media/demo/avatars/member-10.png",
        "headline": "문팩토리에서 일하는 백엔드개발자",
        "skills": [
          "TypeScript",
          "Kotlin",
          "데이터 분석"
        ],
        "location": {
          "country": "KR",
          "region": "부산",
          "latitude": null,
          "longitude": null
        },
        "certificated": false,
        "webUrl": "https://api.example.com/profiles/member-10",
        "currentPosition": {
          "title": "백엔드개발자",
          "companyName": "문팩토리",
          "companyId": "moon-factory"
        }
      }
    ]
  },
  "suggestProfileSkills": [
    {
      "text": "typescript",
      "type": "SKILL",
      "count": 6
    }
  ],
  "getProfile": {
    "handle": "member-01",
    "name": "김민준",
    "imageUrl": "https://api.example.com/media/demo/avatars/member-01.png",
    "headline": "노바핀테크에서 일하는 프론트엔드개발자",
    "skills": [
      "Kotlin",
      "React",
      "리더십"
    ],
    "location": {
      "country": "KR",
      "region": "경기",
      "latitude": null,
      "longitude": null
    },
    "certificated": true,
    "webUrl": "https://api.example.com/profiles/member-01",
    "updatedAt": "2026-11-30T09:00:00.000Z",
    "currentPosition": {
      "title": "프론트엔드개발자",
      "companyName": "노바핀테크",
      "companyId": "nova-fintech"
    },
    "openToWork": false,
    "experiences": [
      {
        "companyName": "노바핀테크",
        "companyId": "nova-fintech",
        "title": "프론트엔드개발자",
        "startDate": "2025-09",
        "endDate": null,
        "description": "서비스를 설계하고 운영했습니다. 팀과 함께 지표를 개선했습니다."
      },
      {
        "companyName": "에듀넥스트",
        "companyId": "edu-next",
        "title": "프론트엔드개발자",
        "startDate": "2023-04",
        "endDate": "2025-08",
        "description": null
      },
      {
        "companyName": "스타트업 연구소",
        "companyId": null,
        "title": "인턴",
        "startDate": "2022-06",
        "endDate": "2022-12",
        "description": null
      }
    ],
    "educations": [
      {
        "school": "카이스트",
        "degree": "석사",
        "fieldOfStudy": "산업디자인",
        "startDate": "2018-04",
        "endDate": "2022-02"
      }
    ],
    "links": [
      {
        "type": "GITHUB",
        "url": "https://github.com/member-01-example"
      }
    ]
  },
  "searchEvents": {
    "totalItems": 22,
    "totalPages": 11,
    "page": 1,
    "pageSize": 2,
    "items": [
      {
        "eventId": "evt_01m5s4khm07tctbyctmbssya7k",
        "eventName": "Pangyo Kotlin Conference 2026",
        "eventCategories": [
          "BUSINESS",
          "LIFESTYLE"
        ],
        "eventSubjects": [
          "BUSINESS"
        ],
        "eventOpenType": "ONLINE",
        "startAt": "2027-01-30T09:00",
        "endAt": "2027-01-30T11:00",
        "location": null,
        "bannerUrl": "https://api.example.com/media/demo/events/evt_01m5s4khm07tctbyctmbssya7k.png",
        "hosts": [
          {
            "hostType": "COMPANY",
            "id": "green-health",
            "name": "그린헬스케어",
            "profileImageUrl": "https://api.example.com/media/demo/logos/green-health.png",
            "imageUrl": "https://api.example.com/media/demo/logos/green-health.png",
            "roles": [
              "ORGANIZER"
            ]
          },
          {
            "hostType": "MEMBER",
            "id": "member-08",
            "name": "윤태현",
            "profileImageUrl": null,
            "imageUrl": null,
            "roles": [
              "SPEAKER"
            ]
          }
        ],
        "stats": {
          "viewCount": 2212,
          "guestCount": 34
        },
        "company": {
          "name": "그린헬스케어",
          "id": "green-health",
          "logoUrl": "https://api.example.com/media/demo/logos/green-health.png",
          "industry": "MEDICAL_HOSPITAL",
          "size": "SMALL"
        },
        "webUrl": "https://api.example.com/events/evt_01m5s4khm07tctbyctmbssya7k",
        "language": "en"
      },
      {
        "eventId": "evt_01m5kzt3m0q4556d2385652egb",
        "eventName": "Pangyo React Conference 2026",
        "eventCategories": [
          "FAIR"
        ],
        "eventSubjects": [
          "WEB3",
          "PRODUCT",
          "CULTURE"
        ],
        "eventOpenType": "OFFLINE",
        "startAt": "2027-01-29T09:00",
        "endAt": "2027-01-29T12:00",
        "location": {
          "country": "KR",
          "region": "판교",
          "locality": "판교 강남구",
          "placeName": "서울뱅크 본사",
          "address": "테헤란로 123",
          "addressDetail": "5층 대강당",
          "directions": "2호선 역삼역 3번 출구",
          "latitude": 37.5006,
          "longitude": 127.0364,
          "title": "서울뱅크 본사",
          "detail": "5층 대강당",
          "description": "2호선 역삼역 3번 출구"
        },
        "bannerUrl": "https://api.example.com/media/demo/events/evt_01m5kzt3m0q4556d2385652egb.png",
        "hosts": [
          {
            "hostType": "COMPANY",
            "id": "seoul-bank",
            "name": "서울뱅크",
            "profileImageUrl": "https://api.example.com/media/demo/logos/seoul-bank.png",
            "imageUrl": "https://api.example.com/media/demo/logos/seoul-bank.png",
            "roles": [
              "ORGANIZER"
            ]
          },
          {
            "hostType": "MEMBER",
            "id": "member-17",
            "name": "정시우",
            "profileImageUrl": "https://api.example.com/media/demo/avatars/member-17.png",
            "imageUrl": "https://api.example.com/media/demo/avatars/member-17.png",
            "roles": [
              "SPEAKER"
            ]
          }
        ],
        "stats": {
          "viewCount": 410,
          "guestCount": null
        },
        "company": {
          "name": "서울뱅크",
          "id": "seoul-bank",
          "logoUrl": "https://api.example.com/media/demo/logos/seoul-bank.png",
          "industry": "FIN_FINTECH",
          "size": "HUGE"
        },
        "webUrl": "https://api.example.com/events/evt_01m5kzt3m0q4556d2385652egb",
        "language": "en"
      }
    ]
  },
  "getEvent": {
    "eventId": "evt_01m2z0pcm0kedx40rzh2bweakn",
    "eventName": "Tokyo React Conference 2026",
    "eventCategories": [
      "BUSINESS"
    ],
    "eventSubjects": [
      "WEB3"
    ],
    "eventOpenType": "OFFLINE",
    "startAt": "2026-12-21T09:00:00.000Z",
    "endAt": "2026-12-21T17:00:00.000Z",
    "location": {
      "country": "KR",
      "region": "도쿄",
      "locality": "도쿄 강남구",
      "placeName": "Acme Labs 본사",
      "address": "테헤란로 123",
      "addressDetail": "5층 대강당",
      "directions": "2호선 역삼역 3번 출구",
      "latitude": 37.5006,
      "longitude": 127.0364,
      "title": "Acme Labs 본사",
      "detail": "5층 대강당",
      "description": "2호선 역삼역 3번 출구"
    },
    "bannerUrl": "https://api.example.com/media/demo/events/evt_01m2z0pcm0kedx40rzh2bweakn.png",
    "hosts": [
      {
        "hostType": "COMPANY",
        "id": "acme-labs",
        "name": "Acme Labs",
        "profileImageUrl": "https://api.example.com/media/demo/logos/acme-labs.png",
        "imageUrl": "https://api.example.com/media/demo/logos/acme-labs.png",
        "roles": [
          "ORGANIZER"
        ]
      },
      {
        "hostType": "MEMBER",
        "id": "member-15",
        "name": "박유진",
        "profileImageUrl": "https://api.example.com/media/demo/avatars/member-15.png",
        "imageUrl": "https://api.example.com/media/demo/avatars/member-15.png",
        "roles": [
          "SPEAKER"
        ]
      }
    ],
    "stats": {
      "viewCount": 1518,
      "guestCount": 88
    },
    "company": {
      "name": "Acme Labs",
      "id": "acme-labs",
      "logoUrl": "https://api.example.com/media/demo/logos/acme-labs.png",
      "industry": "IT_SOFTWARE",
      "size": "MEDIUM"
    },
    "webUrl": "https://api.example.com/events/evt_01m2z0pcm0kedx40rzh2bweakn",
    "language": "en",
    "description": "Practitioners of React gather to share what they learned. Sessions and networking are prepared.",
    "descriptionHtml": "<p>Practitioners of React gather to share what they learned. Sessions and networking are prepared.</p>",
    "attachments": [],
    "eventStatus": "PUBLISHED",
    "accessType": "PUBLIC",
    "joinType": "OPEN",
    "onlineLink": null,
    "tickets": [
      {
        "ticketId": 1,
        "ticketType": "FREE",
        "ticketName": "일반 참가",
        "description": "누구나 참가할 수 있습니다.",
        "price": null,
        "currency": null,
        "approvalRequired": false,
        "waitingRequired": true,
        "maxCount": 200,
        "maxPerPerson": null,
        "soldOut": false,
        "saleStartAt": "2026-09-20T09:00:00.000Z",
        "saleEndAt": "2026-12-21T09:00:00.000Z",
        "salesStartAt": "2026-09-20T09:00:00.000Z",
        "salesEndAt": "2026-12-21T09:00:00.000Z",
        "formFields": []
      },
      {
        "ticketId": 2,
        "ticketType": "FREE",
        "ticketName": "현업자 네트워킹",
        "description": "승인 후 참가가 확정됩니다.",
        "price": null,
        "currency": null,
        "approvalRequired": true,
        "waitingRequired": false,
        "maxCount": null,
        "maxPerPerson": null,
        "soldOut": false,
        "saleStartAt": "2026-09-20T09:00:00.000Z",
        "saleEndAt": "2026-12-21T17:00:00.000Z",
        "salesStartAt": null,
        "salesEndAt": null,
        "formFields": [
          {
            "fieldLabel": "회사명",
            "fieldType": "TEXT",
            "required": true
          }
        ]
      }
    ],
    "sessions": [
      {
        "sessionId": 1,
        "sessionName": "React 세션 1",
        "videoUrl": null,
        "thumbnailUrl": null,
        "speakers": [
          {
            "name": "Acme Labs 발표자 1",
            "jobOrDept": "개발팀"
          }
        ],
        "tags": [],
        "sortNo": 0,
        "title": "React 세션 1",
        "description": "React 실전 사례 발표",
        "startAt": "2026-12-21T09:00:00.000Z",
        "endAt": "2026-12-21T10:00:00.000Z"
      },
      {
        "sessionId": 2,
        "sessionName": "React 세션 2",
        "videoUrl": null,
        "thumbnailUrl": null,
        "speakers": [
          {
            "name": "Acme Labs 발표자 2",
            "jobOrDept": "개발팀"
          }
        ],
        "tags": [],
        "sortNo": 0,
        "title": "React 세션 2",
        "description": "React 실전 사례 발표",
        "startAt": "2026-12-21T10:00:00.000Z",
        "endAt": "2026-12-21T11:00:00.000Z"
      },
      {
        "sessionId": 3,
        "sessionName": "React 세션 3",
        "videoUrl": null,
        "thumbnailUrl": null,
        "speakers": [
          {
            "name": "Acme Labs 발표자 3",
            "jobOrDept": "개발팀"
          }
        ],
        "tags": [],
        "sortNo": 0,
        "title": "React 세션 3",
        "description": "React 실전 사례 발표",
        "startAt": "2026-12-21T11:00:00.000Z",
        "endAt": "2026-12-21T12:00:00.000Z"
      }
    ],
    "faqs": [
      {
        "faqId": 1,
        "title": "주차가 가능한가요?",
        "content": "건물 지하 주차장을 2시간 무료로 이용할 수 있습니다.",
        "sortNo": 0,
        "question": "주차가 가능한가요?",
        "answer": "건물 지하 주차장을 2시간 무료로 이용할 수 있습니다.",
        "categoryName": "FAQ"
      },
      {
        "faqId": 2,
        "title": "발표 자료를 받을 수 있나요?",
        "content": "행사 후 이메일로 보내드립니다.",
        "sortNo": 0,
        "question": "발표 자료를 받을 수 있나요?",
        "answer": "행사 후 이메일로 보내드립니다.",
        "categoryName": "FAQ"
      }
    ],
    "createdAt": "2026-09-20T09:00:00.000Z",
    "updatedAt": "2026-09-21T09:00:00.000Z"
  },
  "getEventTickets": [
    {
      "ticketId": 1,
      "ticketType": "FREE",
      "ticketName": "일반 참가",
      "description": "누구나 참가할 수 있습니다.",
      "price": null,
      "currency": null,
      "approvalRequired": false,
      "waitingRequired": true,
      "maxCount": 200,
      "maxPerPerson": null,
      "soldOut": false,
      "saleStartAt": "2026-09-20T09:00:00.000Z",
      "saleEndAt": "2026-12-21T09:00:00.000Z",
      "salesStartAt": "2026-09-20T09:00:00.000Z",
      "salesEndAt": "2026-12-21T09:00:00.000Z",
      "formFields": []
    },
    {
      "ticketId": 2,
      "ticketType": "FREE",
      "ticketName": "현업자 네트워킹",
      "description": "승인 후 참가가 확정됩니다.",
      "price": null,
      "currency": null,
      "approvalRequired": true,
      "waitingRequired": false,
      "maxCount": null,
      "maxPerPerson": null,
      "soldOut": false,
      "saleStartAt": "2026-09-20T09:00:00.000Z",
      "saleEndAt": "2026-12-21T17:00:00.000Z",
      "salesStartAt": null,
      "salesEndAt": null,
      "formFields": [
        {
          "fieldLabel": "회사명",
          "fieldType": "TEXT",
          "required": true
        }
      ]
    }
  ],
  "getEventSessions": [
    {
      "day": "2026-12-21",
      "startTime": "18:00",
      "endTime": "19:00",
      "sessions": [
        {
          "sessionId": 1,
          "sessionName": "React 세션 1",
          "videoUrl": null,
          "thumbnailUrl": null,
          "speakers": [
            {
              "name": "Acme Labs 발표자 1",
              "jobOrDept": "개발팀"
            }
          ],
          "tags": [],
          "sortNo": 0,
          "title": "React 세션 1",
          "description": "React 실전 사례 발표",
          "startAt": "2026-12-21T09:00:00.000Z",
          "endAt": "2026-12-21T10:00:00.000Z"
        }
      ]
    },
    {
      "day": "2026-12-21",
      "startTime": "19:00",
      "endTime": "20:00",
      "sessions": [
        {
          "sessionId": 2,
          "sessionName": "React 세션 2",
          "videoUrl": null,
          "thumbnailUrl": null,
          "speakers": [
            {
              "name": "Acme Labs 발표자 2",
              "jobOrDept": "개발팀"
            }
          ],
          "tags": [],
          "sortNo": 0,
          "title": "React 세션 2",
          "description": "React 실전 사례 발표",
          "startAt": "2026-12-21T10:00:00.000Z",
          "endAt": "2026-12-21T11:00:00.000Z"
        }
      ]
    },
    {
      "day": "2026-12-21",
      "startTime": "20:00",
      "endTime": "21:00",
      "sessions": [
        {
          "sessionId": 3,
          "sessionName": "React 세션 3",
          "videoUrl": null,
          "thumbnailUrl": null,
          "speakers": [
            {
              "name": "Acme Labs 발표자 3",
              "jobOrDept": "개발팀"
            }
          ],
          "tags": [],
          "sortNo": 0,
          "title": "React 세션 3",
          "description": "React 실전 사례 발표",
          "startAt": "2026-12-21T11:00:00.000Z",
          "endAt": "2026-12-21T12:00:00.000Z"
        }
      ]
    }
  ],
  "getEventFaqs": [
    {
      "categoryName": "FAQ",
      "faqs": [
        {
          "faqId": 1,
          "title": "주차가 가능한가요?",
          "content": "건물 지하 주차장을 2시간 무료로 이용할 수 있습니다.",
          "sortNo": 0,
          "question": "주차가 가능한가요?",
          "answer": "건물 지하 주차장을 2시간 무료로 이용할 수 있습니다."
        },
        {
          "faqId": 2,
          "title": "발표 자료를 받을 수 있나요?",
          "content": "행사 후 이메일로 보내드립니다.",
          "sortNo": 0,
          "question": "발표 자료를 받을 수 있나요?",
          "answer": "행사 후 이메일로 보내드립니다."
        }
      ]
    }
  ],
  "listChanges": {
    "items": [],
    "nextCursor": "YzIuMjQxNjc1ODI2MTg3NjkxLjA",
    "hasMore": false
  },
  "getJobCategories": [
    {
      "code": "dev",
      "displayName": "Development",
      "description": ""
    },
    {
      "code": "dataAi",
      "displayName": "Data & AI",
      "description": ""
    },
    {
      "code": "designUX",
      "displayName": "Design & UX",
      "description": ""
    },
    {
      "code": "product",
      "displayName": "Product & Planning",
      "description": ""
    },
    {
      "code": "manage",
      "displayName": "Management & Operations",
      "description": ""
    },
    {
      "code": "marketingPr",
      "displayName": "Marketing & PR",
      "description": ""
    }
  ],
  "getEmploymentTypes": [
    {
      "code": "FULL_TIME",
      "displayName": "Full-time",
      "description": ""
    },
    {
      "code": "FIXED_TERM",
      "displayName": "Fixed-term",
      "description": ""
    },
    {
      "code": "COMMISSIONED",
      "displayName": "Commissioned",
      "description": ""
    },
    {
      "code": "INTERN",
      "displayName": "Internship",
      "description": ""
    },
    {
      "code": "FREELANCER",
      "displayName": "Freelancer",
      "description": ""
    },
    {
      "code": "SELF_EMPLOYED",
      "displayName": "Self-employed",
      "description": ""
    }
  ],
  "getSeniorities": [
    {
      "code": "BEGINNER",
      "displayName": "Entry level",
      "description": "Internship or no professional experience yet"
    },
    {
      "code": "JUNIOR",
      "displayName": "Junior",
      "description": "Carries out core tasks (about 1–3 years of experience)"
    },
    {
      "code": "MIDLEVEL",
      "displayName": "Mid-level",
      "description": "Owns projects with a solid grasp of the work (about 3–7 years of experience)"
    },
    {
      "code": "SENIOR",
      "displayName": "Senior",
      "description": "Leads a team of several people (about 7–15 years of experience)"
    },
    {
      "code": "EXECUTIVE",
      "displayName": "Executive",
      "description": "Decides at executive level (15 years of experience or more)"
    }
  ],
  "getCompanySizes": [
    {
      "code": "TINY",
      "displayName": "1–10 employees",
      "description": ""
    },
    {
      "code": "SMALL",
      "displayName": "11–50 employees",
      "description": ""
    },
    {
      "code": "MEDIUM",
      "displayName": "51–200 employees",
      "description": ""
    },
    {
      "code": "LARGE",
      "displayName": "201–1,000 employees",
      "description": ""
    },
    {
      "code": "HUGE",
      "displayName": "1,000+ employees",
      "description": ""
    }
  ],
  "getWorkTypes": [
    {
      "code": "ONSITE",
      "displayName": "On-site",
      "description": ""
    },
    {
      "code": "HYBRID",
      "displayName": "Hybrid",
      "description": ""
    },
    {
      "code": "REMOTE",
      "displayName": "Remote",
      "description": ""
    }
  ],
  "getJobIndustries": [
    {
      "code": "IT",
      "displayName": "IT & Internet",
      "children": [
        {
          "code": "IT_SOFTWARE",
          "displayName": "IT · Software"
        },
        {
          "code": "IT_PORTAL",
          "displayName": "IT · Portals & Internet"
        },
        {
          "code": "IT_NETWORK",
          "displayName": "IT · Network & Telecom"
        },
        {
          "code": "IT_AI",
          "displayName": "IT · Artificial Intelligence"
        },
        {
          "code": "IT_CONSULTING",
          "displayName": "IT · Consulting"
        }
      ]
    },
    {
      "code": "FIN",
      "displayName": "Finance",
      "children": [
        {
          "code": "FIN_FINTECH",
          "displayName": "Finance · Fintech"
        },
        {
          "code": "FIN_ETC",
          "displayName": "Finance · Other"
        }
      ]
    },
    {
      "code": "MEDIA",
      "displayName": "Media & Design",
      "children": [
        {
          "code": "MEDIA_ENTERTAINMENT",
          "displayName": "Media · Entertainment"
        },
        {
          "code": "MEDIA_DESIGN",
          "displayName": "Media · Design"
        }
      ]
    },
    {
      "code": "SERVICE",
      "displayName": "Services",
      "children": [
        {
          "code": "SERVICE_EDUCATION",
          "displayName": "Services · Education"
        },
        {
          "code": "SERVICE_FACILITY",
          "displayName": "Services · Facility Management"
        },
        {
          "code": "SERVICE_ETC",
          "displayName": "Services · Other"
        }
      ]
    },
    {
      "code": "MFG",
      "displayName": "Manufacturing",
      "children": [
        {
          "code": "MFG_ETC",
          "displayName": "Manufacturing · Other"
        }
      ]
    },
    {
      "code": "DIST",
      "displayName": "Distribution & Trade",
      "children": [
        {
          "code": "DIST_SALES",
          "displayName": "Distribution · Retail"
        },
        {
          "code": "DIST_LOGISTICS",
          "displayName": "Distribution · Logistics"
        },
        {
          "code": "DIST_ETC",
          "displayName": "Distribution · Other"
        }
      ]
    }
  ],
  "getEventCategories": [
    {
      "code": "MARKET",
      "displayName": "Market",
      "description": "Pop-up stores and limited-time markets"
    },
    {
      "code": "FAIR",
      "displayName": "Fair",
      "description": "Fairs and exhibitions"
    },
    {
      "code": "CONFERENCE",
      "displayName": "Conference",
      "description": "Talks, seminars and forums"
    },
    {
      "code": "NETWORKING",
      "displayName": "Networking",
      "description": "Meetups and mentoring"
    },
    {
      "code": "BUSINESS",
      "displayName": "Business",
      "description": "Investor relations and launch days"
    },
    {
      "code": "COMPETITION",
      "displayName": "Competition",
      "description": "Hackathons and contests"
    }
  ],
  "getEventSubjects": [
    {
      "code": "WEB3",
      "displayName": "Web3",
      "description": "Blockchain and crypto assets"
    },
    {
      "code": "TECHNOLOGY",
      "displayName": "Technology",
      "description": "AI, engineering and research"
    },
    {
      "code": "PRODUCT",
      "displayName": "Product",
      "description": "Services, planning, design and marketing"
    },
    {
      "code": "FINANCE",
      "displayName": "Finance",
      "description": "Assets, investment and fintech"
    },
    {
      "code": "HUMANITIES",
      "displayName": "Humanities",
      "description": "Society, climate, life sciences, religion and public interest"
    },
    {
      "code": "BUSINESS",
      "displayName": "Business",
      "description": "Management, strategy, organizations, HR and sales"
    }
  ]
};
