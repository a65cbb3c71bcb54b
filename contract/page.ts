/**
 * The checkout page carries the first replies of GET checkout and GET user in a script element of
 * this id, so the first screen needs no call. (No schemas here: the entry script reads it.)
 */
export const INITIAL_DATA_ID = 'holdfast-initial-data';
