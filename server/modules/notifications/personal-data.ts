import type { PersonalDataPart } from '../../lib/personal-data.js';
import { deleteOfUser, listNotifications } from './notifications.repo.js';

/** A person's notifications: exported as they are, and removed when the person is anonymised. */
export const notificationsPersonalData: PersonalDataPart = {
  name: 'notifications',
  async collect(db, userId) {
    const rows = await listNotifications(db, userId, 10_000);
    return rows.map((r) => ({
      kind: r.kind,
      params: r.params,
      link: r.link,
      createdAt: r.createdAt.toISOString(),
      readAt: r.readAt?.toISOString() ?? null,
    }));
  },
  async anonymise(tx, userId) {
    await deleteOfUser(tx, userId);
    return undefined;
  },
};
