import { useMutation } from '@tanstack/react-query';
import { apiBlob } from '../../../api/client.js';
import { type EditionIds, editionPath } from './keys.js';

/** GET …/editions/{editionId}/students/credentials: the judge accounts as a spreadsheet. */
export const downloadCredentials = ({ examId, editionId }: EditionIds) =>
  apiBlob(`${editionPath(examId, editionId)}/students/credentials`);

export const useDownloadCredentials = (ids: EditionIds) =>
  useMutation({ mutationFn: () => downloadCredentials(ids) });
