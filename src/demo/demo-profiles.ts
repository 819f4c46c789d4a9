/**
 * The demo members' profiles (docs/profiles.md): careers at the demo companies, in Korean for the Korean members and in
 * English for the others, and every visibility case: public with every section shown, each section hidden, private,
 * and a member who never wrote one. Made by arithmetic on the member's number, not by the demo's random draws, so
 * the rest of the demo is the same with or without them.
 */
import type { Insertable } from 'kysely';
import type { ProfilesTable } from '../db/schema.js';
import type { ProfileExperienceDto } from '../modules/profiles/profile-schemas.js';
import { currentPosition } from '../modules/profiles/profile-service.js';
import { PLACES_OF_CITY } from './places.js';
import { COMPANIES, ROLES, TECHS } from './vocabulary.js';

const DAY = 86_400_000;

const SCHOOLS = {
  ko: ['서울대학교', '카이스트', '연세대학교', '부산대학교', '고려대학교'],
  en: ['Seoul National University', 'KAIST', 'Yonsei University', 'University of Tokyo', 'Korea University'],
};
const FIELDS = {
  ko: ['컴퓨터공학', '산업디자인', '경영학', '통계학', '전자공학'],
  en: ['Computer Science', 'Industrial Design', 'Business', 'Statistics', 'Electrical Engineering'],
};
const DEGREES = { ko: ['학사', '석사'], en: ["Bachelor's", "Master's"] };
const SOFT_SKILLS = {
  ko: ['커뮤니케이션', '리더십', '데이터 분석', '기획'],
  en: ['Communication', 'Leadership', 'Data analysis', 'Planning'],
};
const HEADLINE = {
  ko: (role: string, company: string) => `${company}에서 일하는 ${role}`,
  en: (role: string, company: string) => `${role} at ${company}`,
};
const EXPERIENCE_TEXT = {
  ko: '서비스를 설계하고 운영했습니다. 팀과 함께 지표를 개선했습니다.',
  en: 'Designed and ran the service, and improved its numbers with the team.',
};
const SEOUL = PLACES_OF_CITY['서울']![0]!;
const PLACES = [
  { country: 'KR', region: '서울', point: SEOUL },
  { country: 'KR', region: '경기', point: null },
  { country: 'KR', region: '부산', point: null },
  { country: 'JP', region: '東京都', point: null },
];

const month = (at: number) => new Date(at).toISOString().slice(0, 7);

/**
 * The profile of the `n`-th member (0: the demo user) in their language, or null for the member who has none (the
 * last). Members 7 and 15 are private; members hide experiences (n % 5 = 4), educations (n % 6 = 5), links
 * (n % 7 = 3) and openness to work (n % 4 = 2).
 */
export function demoProfile(
  n: number,
  count: number,
  member: { id: number; handle: string },
  language: 'ko' | 'en',
  companyIds: ReadonlyMap<string, number>,
  now: number,
): Insertable<ProfilesTable> | null {
  if (n === count - 1) return null;
  const role = ROLES[n % ROLES.length]!;
  const current = COMPANIES[n % COMPANIES.length]!;
  const earlier = COMPANIES[(n * 5 + 3) % COMPANIES.length]!;
  const roleName = role.name[language];
  const start = now - (400 + n * 37) * DAY;
  const experiences: ProfileExperienceDto[] = [
    {
      companyName: current.name,
      companyId: current.handle,
      title: roleName,
      startDate: month(start),
      endDate: null,
      description: EXPERIENCE_TEXT[language],
    },
    {
      companyName: earlier.name,
      companyId: earlier.handle,
      title: roleName,
      startDate: month(start - 900 * DAY),
      endDate: month(start - 30 * DAY),
      description: null,
    },
  ];
  // Every third member also worked somewhere outside the directory.
  if (n % 3 === 1)
    experiences.push({
      companyName: language === 'ko' ? '스타트업 연구소' : 'Startup Lab',
      companyId: null,
      title: language === 'ko' ? '인턴' : 'Intern',
      startDate: month(start - 1200 * DAY),
      endDate: month(start - 1000 * DAY),
      description: null,
    });
  const place = PLACES[n % PLACES.length]!;
  const school = n % SCHOOLS.ko.length;
  return {
    user_id: member.id,
    headline: HEADLINE[language](roleName, current.name),
    skills: JSON.stringify([TECHS[n % TECHS.length], TECHS[(n * 3 + 1) % TECHS.length], SOFT_SKILLS[language][n % 4]]),
    experiences: JSON.stringify(experiences),
    educations: JSON.stringify([
      {
        school: SCHOOLS[language][school],
        degree: DEGREES[language][n % 2],
        fieldOfStudy: FIELDS[language][school],
        startDate: month(start - 2700 * DAY),
        endDate: month(start - 1300 * DAY),
      },
    ]),
    links: JSON.stringify([
      { type: 'GITHUB', url: `https://github.com/${member.handle}-example` },
      ...(n % 2 === 0 ? [{ type: 'BLOG', url: `https://blog.example.com/${member.handle}` }] : []),
    ]),
    location_country: place.country,
    location_region: place.region,
    location_latitude: place.point ? Math.round(place.point.latitude * 10) / 10 : null,
    location_longitude: place.point ? Math.round(place.point.longitude * 10) / 10 : null,
    open_to_work: n % 3 === 0 ? 1 : 0,
    visibility: n === 7 || n === 15 ? 'PRIVATE' : 'PUBLIC',
    show_experiences: n % 5 === 4 ? 0 : 1,
    show_educations: n % 6 === 5 ? 0 : 1,
    show_links: n % 7 === 3 ? 0 : 1,
    show_open_to_work: n % 4 === 2 ? 0 : 1,
    current_position: currentPosition(experiences),
    current_company_id: companyIds.get(current.handle) ?? null,
    created_at: now - (200 - n) * DAY,
    updated_at: now - (n % 10) * DAY,
  };
}
