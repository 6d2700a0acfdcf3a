import { useQuery } from '@tanstack/react-query';
import type { Home, SearchHit } from '../../../shared/schemas/home.js';
import { api } from './client.js';

// The home-service: the home page's next steps, the menu's "Competitions" and the top bar's
// search, all asked by the app frame (so they live here, not in a feature).
export const HOME_KEY = ['home'] as const;

/** GET /home-service/home: the signed-in person's next steps. */
export const getHome = () => api<Home>('/home-service/home');

export const useHome = (enabled: boolean) =>
  useQuery({ queryKey: HOME_KEY, queryFn: getHome, enabled, staleTime: 30_000 });

/** GET /home-service/search?q=: what the person may see whose name holds `q`. */
export const searchEverything = (q: string, signal?: AbortSignal) =>
  api<{ hits: SearchHit[] }>('/home-service/search', { query: { q }, signal });

export const useSearch = (q: string, enabled: boolean) =>
  useQuery({
    queryKey: ['search', q],
    queryFn: ({ signal }) => searchEverything(q, signal),
    enabled,
    staleTime: 30_000,
  });
