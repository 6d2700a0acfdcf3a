import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Difficulty, ImageImportReport } from '../../../../../shared/schemas/questions.js';
import { api } from '../../../api/client.js';
import type { PhaseIds } from '../../../components/phase/get-phase-context.js';
import { bankKey, itemsPath } from './keys.js';

export type ImageImport = {
  images: File[];
  discipline: string;
  grade: number;
  difficulty?: Difficulty;
  category?: string;
};

/**
 * POST …/items/files (multipart `image` parts with `Discipline` and `Grade`, SPEC.md §7): one
 * open question per accepted image.
 */
export function importImages(ids: PhaseIds, input: ImageImport) {
  const body = new FormData();
  body.append('Discipline', input.discipline);
  body.append('Grade', String(input.grade));
  if (input.difficulty) body.append('Difficulty', input.difficulty);
  if (input.category) body.append('Category', input.category);
  for (const image of input.images) body.append('image', image, image.name);
  return api<ImageImportReport>(`${itemsPath(ids)}/files`, { method: 'POST', body });
}

export function useImportImages(ids: PhaseIds) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ImageImport) => importImages(ids, input),
    onSuccess: () => client.invalidateQueries({ queryKey: bankKey(ids) }),
  });
}
