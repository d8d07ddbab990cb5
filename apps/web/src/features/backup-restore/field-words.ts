/** A difference in words: shared with the server, whose watch messages say drift the same way. */
export { fieldWords, type FieldDifference } from '@ce/contract';
