export const imageUrl = (id: string, position: number) => `/api/community-dashboards/${id}/images/${position}`;
