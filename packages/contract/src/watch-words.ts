// What a watch's card and its edit say, without the schema library: the first screen of a customer's page reads it.

/** What a watch's edit (its card's Edit) says of what it cannot change, and when it is saved. */
export const WATCH_EDIT = {
  title: (organization: string) => `Change the watch of ${organization}`,
  organizationFixed:
    'A watch stays with the organization its stored token belongs to: to watch another customer, make a new watch.',
  tokenElsewhere: 'The stored token and its consent change from the card: Revoke token, then Store a new token.',
  groupsChecked: 'An account group added is checked with the stored token when the watch is saved.',
  groupsWithoutToken: 'Without a stored token, the watch’s account groups can be kept or removed, not added.',
  saved: (organization: string) => `Watch of ${organization} saved.`,
} as const;

/** What a watch's card says of it that a reader could misread. */
export const WATCH_CARD = {
  /**
   * Its next run in the reader's time, named when the watch's own zone is another ("Daily at 18:30 (Europe/Paris)"
   * runs at "17:30 (UTC, your time zone)").
   */
  nextRunInReaderZone: (when: string, zone: string) => `${when} (${zone}, your time zone)`,
} as const;
