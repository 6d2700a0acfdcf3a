import { useMutation } from '@tanstack/react-query';
import { apiBlob } from '../../../api/client.js';
import type { PhaseIds } from '../../../components/phase/get-phase-context.js';
import { itemsPath } from './keys.js';

/** GET …/items/import-template: the spreadsheet to fill in, with examples and instructions. */
export const getImportTemplate = (ids: PhaseIds) => apiBlob(`${itemsPath(ids)}/import-template`);

export const useImportTemplate = (ids: PhaseIds) =>
  useMutation({ mutationFn: () => getImportTemplate(ids) });
