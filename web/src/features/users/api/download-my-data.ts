import { apiBlob } from '../../../api/client.js';

export type PersonalDataFormat = 'json' | 'zip';

/** GET /user-mgmt/my-personal-data?format=…: everything Podium keeps about the signed-in person. */
export const downloadMyData = (format: PersonalDataFormat) =>
  apiBlob('/user-mgmt/my-personal-data', { query: { format } });
