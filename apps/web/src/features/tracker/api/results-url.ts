/** GET /api/tracker/results/:id: the results file of a creation. */
export const resultsUrl = (id: string) => `/api/tracker/results/${id}`;
