/**
 * Request examples written by hand, by operationId, where a body has rules between its
 * fields that an example made from the schema alone cannot meet (a correct answer among the
 * answers, questions to draw). The test of the description parses each with the route's schema.
 */
export const REQUEST_EXAMPLES: Readonly<Record<string, unknown>> = {
  postExamEditionPhaseItems: {
    itemQ: 'Cât face $2 + 2$?',
    itemCategory: 'Algebră',
    itemDiscipline: 'Matematică',
    itemGrade: 5,
    difficulty: 'low',
    itemType: 'single',
    itemAnswers: ['3', '4', '5'],
    itemCorrectAnswers: [1],
  },
  postExamEditionPhaseTests: {
    name: 'Proba scrisă, clasa a V-a',
    grades: [5],
    subject: 'Matematică',
    startDate: '2026-03-14T09:00:00.000+02:00',
    endDate: '2026-03-14T12:00:00.000+02:00',
    duration: 120,
    totalScore: 100,
    easyCount: 3,
    mediumCount: 4,
    hardCount: 3,
  },
};
