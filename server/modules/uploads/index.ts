// Front door of the uploads module (docs/decisions/0054): what the rest of the server may use of it.
// Uploaded photos and the sweep of unused ones.
export { registerPhotoCleanup } from './photo-cleanup'
export { readPhotoFile } from './read-photo'
export { uploadRoutes } from './uploads.routes'
export { countPhotoUpload, createUpload } from './uploads.service'
