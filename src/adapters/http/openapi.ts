/** Placeholder replaced in the next commit. */
export const openApiDocument: object = {};
