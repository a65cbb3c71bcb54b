/**
 * Imported first by what reads the charts outside the app and the server (the chart exports): the
 * messages the charts name are read in the source language, the spec's English.
 */
import { installSourceCatalogue } from './catalogues.ts';

installSourceCatalogue();
