// The fixed parts of the `-o html` report (src/report/html.ts): its style and its one script. The script's
// SHA-256 goes in the page's Content-Security-Policy, so no other script can run; nothing external loads.
import { createHash } from 'node:crypto';

export const STYLE = `
:root{color-scheme:light dark;--bg:#f7f8fa;--fg:#1d2330;--muted:#667085;--card:#fff;--line:#e4e7ec;
--critical:#b42318;--high:#e0482e;--medium:#d39b00;--low:#2e6fd8;--info:#7a8699;--ok:#1f883d}
@media (prefers-color-scheme:dark){:root{--bg:#0f131a;--fg:#e6e9ef;--muted:#98a2b3;--card:#171c25;
--line:#2a3140;--critical:#ff6b5e;--high:#ff8a4c;--medium:#f5c542;--low:#6ea8ff;--info:#98a2b3;--ok:#4ac26b}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,
"Helvetica Neue",Arial,sans-serif;display:flex;flex-direction:column}
header{order:1;padding:20px 28px 8px}
#summary{order:2;display:grid;grid-template-columns:repeat(auto-fit,minmax(240px,1fr));gap:16px;padding:8px 28px}
#findings{order:3;padding:8px 28px 28px}
h1{font-size:20px;margin:0 0 6px}
h2{font-size:13px;text-transform:uppercase;letter-spacing:.06em;color:var(--muted);margin:0 0 10px}
.meta{color:var(--muted);display:flex;flex-wrap:wrap;gap:4px 18px}
.meta b{color:var(--fg);font-weight:600}
.verdict{display:inline-block;padding:2px 10px;border-radius:999px;font-weight:600;color:#fff}
.verdict.fail{background:var(--critical)}.verdict.pass{background:var(--ok)}.verdict.none{background:var(--info)}
.card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:14px 16px}
.card ol{margin:0;padding-left:0;list-style:none}
.card li{display:flex;justify-content:space-between;gap:12px;padding:3px 0;border-bottom:1px dashed var(--line)}
.card li span:first-child{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
svg text{fill:var(--fg);font-size:12px}
.controls{display:flex;gap:10px;flex-wrap:wrap;margin:0 0 10px}
.controls input,.controls select{font:inherit;padding:6px 10px;border:1px solid var(--line);border-radius:8px;
background:var(--card);color:var(--fg)}
.controls input{flex:1;min-width:220px}
#shown{color:var(--muted);align-self:center}
table{width:100%;border-collapse:collapse;background:var(--card);border:1px solid var(--line);border-radius:10px;
overflow:hidden}
th,td{text-align:left;padding:7px 10px;border-bottom:1px solid var(--line);vertical-align:top;overflow-wrap:anywhere}
th{font-size:12px;text-transform:uppercase;letter-spacing:.04em;color:var(--muted);cursor:pointer;
user-select:none;white-space:nowrap;position:sticky;top:0;background:var(--card)}
th:focus-visible{outline:2px solid var(--low);outline-offset:-2px}
th[aria-sort=ascending]::after{content:" ▲"}th[aria-sort=descending]::after{content:" ▼"}
tbody tr:hover{background:color-mix(in srgb,var(--line) 40%,transparent)}
td.sev span{display:inline-block;min-width:68px;text-align:center;padding:1px 8px;border-radius:999px;
font-size:12px;font-weight:600;color:#fff;background:var(--info)}
tr.s0 td.sev span{background:var(--critical)}tr.s1 td.sev span{background:var(--high)}
tr.s2 td.sev span{background:var(--medium);color:#222}tr.s3 td.sev span{background:var(--low)}
td.sev,td.id{white-space:nowrap}
td.id,td.res{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px}
td.muted{color:var(--muted)}
tr.ignored{opacity:.6}
footer{order:4;color:var(--muted);padding:0 28px 24px;font-size:12px}
`;

/**
 * Sorting and filtering, in the page itself: most severe first on load (the rows were written as they came);
 * the initial filter and order may come from the address's #fragment (`#severity=high&q=bucket&sort=title`).
 */
export const SCRIPT = `(function(){
var body=document.querySelector('#findings tbody');if(!body)return;
var rows=Array.prototype.slice.call(body.rows);
var q=document.getElementById('q'),sev=document.getElementById('sev'),st=document.getElementById('state'),
shown=document.getElementById('shown');
document.querySelector('.controls').hidden=false;
rows.forEach(function(r){r._t=r.textContent.toLowerCase();});
function apply(){var t=q.value.trim().toLowerCase(),s=sev.value,x=st.value,n=0;
rows.forEach(function(r){var ok=(!s||r.dataset.sev===s)&&(!x||r.dataset.state===x)&&
(!t||r._t.indexOf(t)>=0);if(r.hidden===ok)r.hidden=!ok;if(ok)n++;});
shown.textContent=n.toLocaleString('en-US')+' of '+rows.length.toLocaleString('en-US')+' shown';}
var timer;function later(){clearTimeout(timer);timer=setTimeout(apply,rows.length>5000?150:0);}
var dir={};
function sortBy(th){var i=th.cellIndex,k=th.dataset.key,d=dir[k]=dir[k]===1?-1:1;
document.querySelectorAll('#findings th').forEach(function(h){h.removeAttribute('aria-sort');});
th.setAttribute('aria-sort',d===1?'ascending':'descending');
rows.sort(function(a,b){var x,y;if(k==='severity'){x=+a.dataset.rank;y=+b.dataset.rank;}
else{x=a.cells[i].textContent.toLowerCase();y=b.cells[i].textContent.toLowerCase();}
return (x<y?-1:x>y?1:0)*d;});
var f=document.createDocumentFragment();rows.forEach(function(r){f.appendChild(r);});body.appendChild(f);}
document.querySelectorAll('#findings th').forEach(function(th){th.tabIndex=0;
th.addEventListener('click',function(){sortBy(th);});
th.addEventListener('keydown',function(e){if(e.key==='Enter'||e.key===' '){e.preventDefault();sortBy(th);}});});
q.addEventListener('input',later);[sev,st].forEach(function(e){e.addEventListener('input',apply);});
var h=new URLSearchParams(location.hash.slice(1));
if(h.get('q'))q.value=h.get('q');if(h.get('severity'))sev.value=h.get('severity');
if(h.get('state'))st.value=h.get('state');
var th=document.querySelector('#findings th[data-key="'+(h.get('sort')||'severity').replace(/[^a-z]/g,'')+'"]');
if(th){sortBy(th);if(h.get('desc'))sortBy(th);}
apply();document.documentElement.dataset.ready='1';})();`;

export const SCRIPT_HASH = `sha256-${createHash('sha256').update(SCRIPT).digest('base64')}`;

/** Nothing may load from anywhere; the one inline script (by hash) and inline styles only. */
export const CSP = `default-src 'none'; style-src 'unsafe-inline'; script-src '${SCRIPT_HASH}'; img-src 'none'; font-src 'none'; connect-src 'none'; form-action 'none'; base-uri 'none'`;
