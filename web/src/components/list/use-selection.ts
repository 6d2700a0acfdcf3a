import { useCallback, useState } from 'react';

/**
 * Row keys chosen in a paged list. The selection belongs to one view (`viewKey` from
 * `usePagedList`): another page, order or filter starts empty, so a bulk action never hits
 * rows the user can no longer see.
 */
export function useSelection(viewKey: string) {
  const [state, setState] = useState<{ viewKey: string; keys: string[] }>({ viewKey, keys: [] });
  const selected = state.viewKey === viewKey ? state.keys : [];
  const setSelected = useCallback((keys: string[]) => setState({ viewKey, keys }), [viewKey]);
  const clear = useCallback(() => setState({ viewKey, keys: [] }), [viewKey]);
  return { selected, setSelected, clear };
}
