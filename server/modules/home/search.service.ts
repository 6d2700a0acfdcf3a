// The top bar's search: people, competitions, phases, tests and questions the person may see,
// each kind under the same scope as its list (the students list's, the competitions list's,
// the tests' and the bank's rights), a few of each.
import type { SearchHit } from '../../../shared/schemas/home.js';
import type { Db } from '../../db/client.js';
import type { Actor } from '../../lib/auth-guard.js';
import { normalizeName } from '../../lib/text.js';
import { examScopeSql } from '../exams/index.js';
import { studentScopeOf, studentScopeSql } from '../users/index.js';
import * as repo from './search.repo.js';

const phasePath = (r: { examId: string; editionId: string; phaseId: string }) =>
  `/examene/${r.examId}/editii/${r.editionId}/phases/${r.phaseId}`;
const where = (r: { examName: string; editionName: string; phaseName?: string }) =>
  [r.examName, r.editionName, r.phaseName].filter(Boolean).join(' › ');
/** A statement's first words, without Markdown's and LaTeX's marks. */
const firstWords = (text: string) => {
  const plain = text
    .replace(/[#*_`>$\\[\]()!]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return plain.length > 90 ? `${plain.slice(0, 89)}…` : plain;
};

export function searchService({ db }: { db: Db }) {
  return {
    /**
     * What the person may see whose name (or statement) holds `q`, grouped by kind. An account
     * that is not active and registered finds nothing; students find only competitions open to
     * them and their own tests; only admins and the competitions' people find the rest.
     */
    async search(actor: Actor, q: string): Promise<{ hits: SearchHit[] }> {
      const ready = actor.type === 'admin' || (actor.state === 'active' && actor.registered);
      if (!ready) return { hits: [] };
      const folded = repo.containing(normalizeName(q) ?? '');
      const plain = repo.containing(q);
      const staff = actor.type !== 'student';
      const [people, exams, phases, tests, questions] = await Promise.all([
        staff
          ? repo.searchPeople(db, folded, studentScopeSql(studentScopeOf(actor)), true)
          : Promise.resolve([]),
        repo.searchExams(db, folded, examScopeSql(actor)),
        staff ? repo.searchPhases(db, plain, actor) : Promise.resolve([]),
        repo.searchTests(db, plain, actor),
        staff ? repo.searchQuestions(db, plain, actor) : Promise.resolve([]),
      ]);
      const hits: SearchHit[] = [
        ...people.map((p) => ({
          kind: 'person' as const,
          id: p.id,
          title: [p.givenName, p.familyName].filter(Boolean).join(' ') || p.email,
          context: p.type,
          // The list narrowed to this person alone (the people screens have no page each).
          link: `${p.type === 'teacher' ? '/profesori' : '/elevi'}?persoana=${p.id}`,
        })),
        ...exams.map((e) => ({
          kind: 'exam' as const,
          id: e.id,
          title: e.name,
          context: e.subject,
          link: staff ? `/examene/${e.id}` : '/test/inscriere',
        })),
        ...phases.map((p) => ({
          kind: 'phase' as const,
          id: p.phaseId,
          title: p.phaseName,
          context: where({ examName: p.examName, editionName: p.editionName }),
          link: phasePath(p),
        })),
        ...tests.map((t) => ({
          kind: 'test' as const,
          id: t.id,
          title: t.name,
          context: where(t),
          link: staff ? `${phasePath(t)}/tests` : '/tests',
        })),
        ...questions.map((x) => ({
          kind: 'question' as const,
          id: x.id,
          title: firstWords(x.text),
          context: where(x),
          link: `${phasePath(x)}/questions`,
        })),
      ];
      return { hits };
    },
  };
}

export type SearchService = ReturnType<typeof searchService>;
