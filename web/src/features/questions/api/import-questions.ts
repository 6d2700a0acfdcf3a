import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SheetImportReport } from '../../../../../shared/schemas/questions.js';
import { api } from '../../../api/client.js';
import type { PhaseIds } from '../../../components/phase/get-phase-context.js';
import { bankKey, itemsPath } from './keys.js';

/** POST …/items/import (multipart `file`): one question per valid spreadsheet row. */
export function importQuestions(ids: PhaseIds, file: File) {
  const body = new FormData();
  body.append('file', file, file.name);
  return api<SheetImportReport>(`${itemsPath(ids)}/import`, { method: 'POST', body });
}

export function useImportQuestions(ids: PhaseIds) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => importQuestions(ids, file),
    onSuccess: () => client.invalidateQueries({ queryKey: bankKey(ids) }),
  });
}
