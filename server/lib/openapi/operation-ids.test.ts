import { describe, expect, it } from 'vitest';
import { operationIdOf } from './operation-ids.js';

describe('operation ids', () => {
  it('are the method and the words of the path, one of a collection in the singular', () => {
    expect(operationIdOf('GET', '/exams')).toBe('getExams');
    expect(operationIdOf('GET', '/exams/:examId')).toBe('getExam');
    expect(operationIdOf('PATCH', '/exams/{examId}')).toBe('patchExam');
    expect(
      operationIdOf('GET', '/exams/:examId/editions/:editionId/phases/:phaseId/students/count'),
    ).toBe('getExamEditionPhaseStudentsCount');
    expect(operationIdOf('PUT', '/open-exams/:id/register')).toBe('putOpenExamRegister');
    expect(operationIdOf('GET', '/auth/token/:uid/:code')).toBe('getAuthToken');
    expect(operationIdOf('POST', '/outbox/:mailId/resend')).toBe('postOutboxResend');
    expect(operationIdOf('GET', '/my-diplomas')).toBe('getMyDiplomas');
    expect(operationIdOf('GET', '/health')).toBe('getHealth');
  });
});
