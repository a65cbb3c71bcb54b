/**
 * The design's base styles. Both pages import them through this module, which the build keeps in
 * the pages' shared chunk, so the stylesheet comes before each page's own (the seat page's
 * seats.css, a step's styles) and their rules win where they mean to.
 */
import './styles.css';
