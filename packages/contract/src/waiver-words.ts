// Apart from the schemas (watch-portfolio.ts): a customer's page says these without loading the schema library.

/** A waiver lasts at most this long; it returns (the finding counts again) when it expires. */
export const WAIVER_MAX_DAYS = 365;
/** Waivers in force per organization at most, unless WAIVERS_PER_ORGANIZATION_MAX says otherwise. */
export const WAIVERS_PER_ORGANIZATION_DEFAULT_MAX = 200;

export const WAIVER_MESSAGES = {
  reasonRequired: 'Say why the finding is waived: the next person to read it needs to know.',
  notFound: 'No such waiver.',
  notYours:
    'Only its author, the owner of a watch over this customer, someone with this customer’s token, or a Super User ends a waiver.',
  alreadyWaived: 'This finding is waived already: end that waiver first to change it.',
  /** Who may see, make and end a customer's waivers (decision 0031): those tied to that organization. */
  notTied:
    'Only the owner of a watch over this customer, someone with this customer’s token, or a Super User sees, makes or ends its waivers. Choose the customer with its token and try again.',
  /** What a caller not tied to the customer reads where its waivers would be. */
  cannotSee:
    'You cannot see this customer’s waivers: only the owner of a watch over it, someone with its token, or a Super User can.',
  tokenElsewhere:
    'This token is not one of this customer’s: the platform names another organization for it, so its waivers stay closed to it.',
  tooMany: (max: number) =>
    `This customer has ${max} waivers in force, the most allowed: end one before waiving another finding.`,
} as const;
