/** The tests' language: en-GB, the spec's English, as the app's page and the server give it by default. */
import { installSourceCatalogue } from './catalogues.ts';

installSourceCatalogue();
