/** "512 GB", "1 TB": storage as every page, facet and message says it. */
export const storageLabel = (gb: number) => (gb >= 1024 && gb % 1024 === 0 ? `${gb / 1024} TB` : `${gb} GB`)
