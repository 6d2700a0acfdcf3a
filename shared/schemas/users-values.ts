/**
 * The layout settings a device starts with (SPEC.md §2 settings panel): apart from the user
 * schemas, whose zod the app frame every student loads would otherwise bring along (users.ts
 * checks them against the schema).
 */
export const DEFAULT_SETTINGS = {
  layout: 'full',
  theme: 'light',
  colorScheme: 'blue',
  customScrollbars: true,
  animations: true,
  direction: 'ltr',
  folded: false,
} as const;
