// The data layer of the server tests: the same row builders the demo seed uses, and what only tests need.
export * from '#server/db/factories'
