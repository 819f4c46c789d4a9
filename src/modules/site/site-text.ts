import type { PageLanguage } from '../../shared/page-language.js';

/** The landing page's and the guides' words, in the pages' two languages. */
export const SITE_TEXT: Record<
  PageLanguage,
  {
    title: string;
    lead: string;
    skip: string;
    start: string;
    links: { href: string; name: string; what: string }[];
    guides: string;
    guidesLead: string;
    version: (v: string) => string;
  }
> = {
  ko: {
    title: 'Jobs, Events and Posts Open API',
    lead: '앱 키로 채용 공고, 게시물, 이벤트를 검색하고 읽으며, OAuth 2.0으로 사용자를 대신해 글을 쓰고 공고와 이벤트를 관리하는 API입니다.',
    skip: '본문으로 건너뛰기',
    start: '시작하기',
    links: [
      { href: '/docs', name: 'API 레퍼런스', what: '모든 API와 필드, 오류 코드. 바로 호출해 볼 수 있습니다.' },
      { href: '/guides', name: '가이드', what: 'OAuth, 검색, 웹훅, 변경 피드, MCP, 배포.' },
      { href: '/console', name: '개발자 콘솔', what: '앱, API 키, OAuth 클라이언트, 웹훅, 사용량.' },
      {
        href: '/openapi.json',
        name: 'OpenAPI 문서',
        what: 'SDK와 코드 생성기에 쓰는 OpenAPI 3.1 (한국어: /openapi.ko.json).',
      },
      { href: '/guides/mcp', name: 'AI 에이전트 (MCP)', what: 'MCP 호스트에 /mcp 주소만 넣으면 됩니다.' },
      { href: '/healthz', name: '상태', what: '서비스가 동작 중인지와 실행 중인 릴리스.' },
    ],
    guides: '가이드',
    guidesLead: '서비스를 쓰고 운영하는 방법 (영어).',
    version: (v) => `릴리스 ${v}`,
  },
  en: {
    title: 'Jobs, Events and Posts Open API',
    lead: 'Search and read job postings, posts and events with an app key; through OAuth 2.0, write posts and manage job postings and events for a user.',
    skip: 'Skip to the content',
    start: 'Start here',
    links: [
      { href: '/docs', name: 'API reference', what: 'Every operation, field and error code, and a way to call each.' },
      { href: '/guides', name: 'Guides', what: 'OAuth, search, webhooks, the change feed, MCP, deployment.' },
      { href: '/console', name: 'Developer console', what: 'Apps, API keys, OAuth clients, webhooks and usage.' },
      {
        href: '/openapi.json',
        name: 'OpenAPI document',
        what: 'OpenAPI 3.1 for SDKs and code generators (in Korean: /openapi.ko.json).',
      },
      { href: '/guides/mcp', name: 'AI agents (MCP)', what: 'Give an MCP host the /mcp address and nothing else.' },
      { href: '/healthz', name: 'Health', what: 'Whether the service runs, and which release.' },
    ],
    guides: 'Guides',
    guidesLead: 'How to use and run the service.',
    version: (v) => `Release ${v}`,
  },
};
