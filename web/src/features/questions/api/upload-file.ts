import { useMutation } from '@tanstack/react-query';
import type { StoredFile } from '../../../../../shared/schemas/questions.js';
import { api } from '../../../api/client.js';

/** POST /resource-mgmt/files (multipart `file`): stores an image (png or jpeg by content). */
export function uploadFile(file: File) {
  const body = new FormData();
  body.append('file', file, file.name);
  return api<StoredFile>('/resource-mgmt/files', { method: 'POST', body });
}

export const useUploadFile = () => useMutation({ mutationFn: uploadFile });
