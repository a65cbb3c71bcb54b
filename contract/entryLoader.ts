/** The checkout page's inline loader: the server allows it by its hash, the build writes it into the page (scripts/entryAfterPaint.ts). */

/**
 * A worker that has the browser set up its locale, number and date formatting (ICU's data and the
 * list of locales V8 builds on first use, which the renderer's threads share). On the main thread
 * this took 50 to 100 ms on a laptop, four times that on a phone, inside the first render's prices;
 * done here, in parallel with the page's scripts downloading, the first render's formatters cost
 * nothing. 'en-GB' is the locale contract/money.ts formats with.
 */
const INTL_SETUP =
  "try{new Intl.Locale('en-GB').maximize();new Intl.NumberFormat('en-GB',{style:'currency',currency:'GBP'}).format(0);new Intl.DateTimeFormat('en-GB',{day:'numeric',month:'short',year:'numeric'}).format(0)}finally{close()}";

/**
 * The checkout page names its entry script and the chunks that start the app in a `meta` element
 * (`name="app-entry"`: the entry in `content`, the rest in `data-preload`) and fetches none of them
 * until the page is parsed and the browser has shown what it carries: this inline script then
 * (after DOMContentLoaded and the browser's first-contentful-paint entry, then a task) preloads the
 * chunks and adds the entry, so they all download together without delaying the first paint. A
 * frame's callback is not enough: the frame is shown later, and scripts asked for before then
 * compete with it. Without paint timing it waits a frame and a task; a tab that paints nothing
 * (one opened in the background) starts the app after 3 s all the same. Before all that, as the page starts
 * parsing, it starts the formatting worker above. The server allows it by its hash, and the worker
 * as a blob (worker-src).
 */
export const ENTRY_LOADER =
  '(function(){try{new Worker(URL.createObjectURL(new Blob([' +
  /* @__PURE__ */ JSON.stringify(INTL_SETUP) +
  "],{type:'text/javascript'})))}catch(e){}function run(){var m=document.querySelector('meta[name=app-entry]'),h=document.head;(m.getAttribute('data-preload')||'').split(' ').forEach(function(u){if(!u)return;var l=document.createElement('link');l.rel='modulepreload';l.crossOrigin='anonymous';l.href=u;h.appendChild(l)});var s=document.createElement('script');s.type='module';s.crossOrigin='anonymous';s.src=m.content;h.appendChild(s);}function later(){var started=false;function go(){if(started)return;started=true;setTimeout(run,0)}try{if(PerformanceObserver.supportedEntryTypes.indexOf('paint')>=0){new PerformanceObserver(function(list,observer){if(list.getEntriesByName('first-contentful-paint').length){observer.disconnect();go()}}).observe({type:'paint',buffered:true});setTimeout(go,3000);return}}catch(e){}requestAnimationFrame(function(){setTimeout(go,0)})}if(document.readyState==='loading')document.addEventListener('DOMContentLoaded',later);else later()})()";
