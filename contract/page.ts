/**
 * The checkout page carries the first replies of GET checkout and GET user in a script element of
 * this id, so the first screen needs no call. (No schemas here: the entry script reads it.)
 */
export const INITIAL_DATA_ID = 'holdfast-initial-data';

/**
 * The checkout page's entry script is fetched at once (a `modulepreload` link marked
 * `data-entry`) but run only once the page is parsed and the browser has painted what it carries:
 * this inline script adds it then (after DOMContentLoaded, a frame, then a task). The server
 * allows it by its hash.
 */
export const ENTRY_LOADER =
  "(function(){function run(){var l=document.querySelector('link[data-entry]'),s=document.createElement('script');s.type='module';s.crossOrigin='anonymous';s.src=l.href;document.head.appendChild(s)}function later(){requestAnimationFrame(function(){setTimeout(run,0)})}if(document.readyState==='loading')document.addEventListener('DOMContentLoaded',later);else later()})()";
