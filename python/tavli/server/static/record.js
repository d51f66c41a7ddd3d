// The match file viewer: POST /api/v1/record/open replays a file (and reviews it); each step is
// drawn by POST /api/v1/render (the position before the action, its dice and the play as arrows).
(() => {
  'use strict';
  const API = '/api/v1/';
  const $ = (id) => document.getElementById(id);
  let view = null;
  let index = -1;
  let token = 0;

  async function post(path, body) {
    const res = await fetch(API + path, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
    });
    if (!res.ok) {
      let msg = res.statusText;
      try { const j = await res.json(); msg = j.error ? `${j.error.field || ''}: ${j.error.message}` : msg; } catch (_) { /* keep */ }
      throw new Error(msg);
    }
    return path === 'render' ? res.text() : res.json();
  }

  function showError(msg) {
    $('error').textContent = msg;
    $('error').hidden = !msg;
  }

  function describe(s) {
    const who = view.players[s.player];
    if (s.kind === 'move') return `${who} rolls ${s.dice[0]}${s.dice[1]}: ${s.move || '(no legal play)'}`;
    if (s.kind === 'double') return `${who} doubles to ${s.value}`;
    if (s.kind === 'resign') return `${who} resigns (${s.value} point${s.value > 1 ? 's' : ''} a cube unit)`;
    return `${who} ${s.kind}s`;
  }

  function formatFor(name) {
    const ext = name.toLowerCase().split('.').pop();
    return ext === 'sgf' || ext === 'json' ? ext : 'mat';
  }

  const MARKS = ['doubtful', 'bad', 'very bad'];
  const worst = (marks) => marks.reduce((a, b) => (MARKS.indexOf(b) > MARKS.indexOf(a) ? b : a));

  // A cube decision judged by the review (tavli.review_cube.CubeJudgement as JSON).
  function cubeLine(j, match) {
    const mwc = (x) => (match && x !== null ? ` (${x.toFixed(1)}%)` : '');
    const proper = j.decision === 'take' || j.decision === 'pass' ? j.proper_answer : j.proper;
    const head = `Cube: ${j.decision}. No double ${j.nd.toFixed(3)}${mwc(j.nd_mwc)}, double/take ` +
      `${j.dt.toFixed(3)}${mwc(j.dt_mwc)}, double/pass ${j.dp.toFixed(3)}${mwc(j.dp_mwc)}; proper: ${proper}.`;
    if (!j.loss) return `${head} Right.`;
    const lossMwc = match && j.loss_mwc !== null ? ` (${j.loss_mwc.toFixed(2)}% MWC)` : '';
    return `${head} Loss ${j.loss_mp.toFixed(1)} millipoints${lossMwc}` +
      `${j.mark ? ', ' + j.mark : ''}${j.error ? ' — ' + j.error : ''}.`;
  }

  async function open(file) {
    showError('');
    $('status').textContent = `Reading ${file.name}…`;
    const text = await file.text();
    const review = $('review').value;
    try {
      view = await post('record/open', {
        text, format: formatFor(file.name), review_plies: review === '' ? null : Number(review),
      });
    } catch (e) {
      view = null;
      showError(`${file.name}: ${e.message}`);
      $('status').textContent = 'No file opened.';
      return;
    }
    const list = $('steps');
    list.replaceChildren();
    view.steps.forEach((s, i) => {
      const li = document.createElement('li');
      const marks = [s.cube_review && s.cube_review.mark, s.review && s.review.mark].filter((m) => m);
      const mark = marks.length ? ` — ${marks.join(', ')}` : '';
      li.textContent = `game ${s.game}, ${s.turn}: ${describe(s)}${mark}`;
      li.dataset.step = i;
      if (marks.length) li.className = worst(marks).replace(' ', '-');
      li.addEventListener('click', () => go(i));
      list.append(li);
    });
    go(0);
  }

  async function go(i) {
    if (!view || !view.steps.length) return;
    index = Math.max(0, Math.min(view.steps.length - 1, i));
    const s = view.steps[index];
    const mine = ++token;
    const body = { position: s.position, viewer: 0 };
    if (s.kind === 'move') { body.dice = s.dice; if (s.steps.length) body.play = { steps: s.steps }; }
    let svg;
    try { svg = await post('render', body); } catch (e) { showError(e.message); return; }
    if (mine !== token) return; // a later step was asked for meanwhile
    $('board').innerHTML = svg;
    $('board').dataset.step = index;
    const g = view.games[s.game - 1];
    $('status').textContent = `${view.players[0]} ${s.score[0]} – ${s.score[1]} ${view.players[1]}` +
      (view.length ? ` (match to ${view.length})` : ' (money)') + `, game ${s.game}${g.crawford ? ' (Crawford)' : ''}, cube ${s.cube}`;
    const box = $('review-box');
    box.replaceChildren();
    const p = document.createElement('p');
    p.textContent = describe(s);
    box.append(p);
    if (s.cube_review && 'nd' in s.cube_review) {
      const c = document.createElement('p');
      c.dataset.testid = 'cube-line';
      c.textContent = cubeLine(s.cube_review, view.length > 0);
      box.append(c);
    }
    if (s.review) {
      const r = s.review;
      const q = document.createElement('p');
      q.dataset.testid = 'review-line';
      const luck = `Luck ${r.luck.toFixed(3)}${r.luck_mark ? ' (' + r.luck_mark + ')' : ''}.`;
      q.textContent = r.forced ? `Forced (one legal play). ${luck}`
        : r.loss === 0 ? `Equity ${r.equity_played.toFixed(3)}: the best play. ${luck}`
        : `Equity ${r.equity_played.toFixed(3)}; best ${r.best} (${r.equity_best.toFixed(3)}): ` +
          `${r.loss_mp.toFixed(1)} millipoints${r.mwc !== null && r.mwc !== undefined ? ' (' + r.mwc.toFixed(2) + '% MWC)' : ''}` +
          `${r.mark ? ', ' + r.mark : ''}. ${luck}`;
      box.append(q);
    }
    document.querySelectorAll('#steps li').forEach((li) => li.classList.toggle('current', Number(li.dataset.step) === index));
    const cur = document.querySelector('#steps li.current');
    if (cur) cur.scrollIntoView({ block: 'nearest' });
    $('first').disabled = $('prev').disabled = index === 0;
    $('last').disabled = $('next').disabled = index === view.steps.length - 1;
  }

  $('file').addEventListener('change', (e) => { if (e.target.files.length) open(e.target.files[0]); });
  $('first').addEventListener('click', () => go(0));
  $('prev').addEventListener('click', () => go(index - 1));
  $('next').addEventListener('click', () => go(index + 1));
  $('last').addEventListener('click', () => go(view ? view.steps.length - 1 : 0));
  document.addEventListener('keydown', (e) => {
    if (e.key === 'ArrowRight') go(index + 1);
    if (e.key === 'ArrowLeft') go(index - 1);
  });
  document.addEventListener('dragover', (e) => e.preventDefault());
  document.addEventListener('drop', (e) => {
    e.preventDefault();
    if (e.dataTransfer.files.length) open(e.dataTransfer.files[0]);
  });
})();
