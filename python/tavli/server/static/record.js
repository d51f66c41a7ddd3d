// The match file viewer: POST /api/v1/record/open replays a file (and reviews it); each step is
// drawn by POST /api/v1/render (the position before the action, its dice and the play as arrows).
(() => {
  'use strict';
  const API = '/api/v1/';
  const $ = (id) => document.getElementById(id);
  const LANG = window.TAVLI_LANG; // the page's words (lang.js, i18n.js); the server's words via LANG.word
  const { t } = LANG;
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
    if (s.kind === 'move') return t('recRolls', { who, dice: `${s.dice[0]}${s.dice[1]}`, move: s.move || t('recNoPlay') });
    if (s.kind === 'double') return t('recDoubles', { who, value: s.value });
    if (s.kind === 'resign') return t(s.value > 1 ? 'recResignsN' : 'recResigns1', { who, value: s.value });
    return LANG.has(`act_${s.kind}`) ? t(`act_${s.kind}`, { who }) : `${who} ${s.kind}s`;
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
    const head = t('recCube', {
      decision: LANG.word('cube', j.decision), nd: j.nd.toFixed(3) + mwc(j.nd_mwc), dt: j.dt.toFixed(3) + mwc(j.dt_mwc),
      dp: j.dp.toFixed(3) + mwc(j.dp_mwc), proper: LANG.word('cube', proper),
    });
    if (!j.loss) return head + t('recRight');
    const lossMwc = match && j.loss_mwc !== null ? t('recMwc', { x: j.loss_mwc.toFixed(2) }) : '';
    return head + t('recCubeLoss', {
      mp: j.loss_mp.toFixed(1), mwc: lossMwc, mark: j.mark ? `, ${LANG.word('mark', j.mark)}` : '',
      error: j.error ? ` — ${LANG.word('err', j.error)}` : '',
    });
  }

  async function open(file) {
    showError('');
    $('status').textContent = t('recReading', { file: file.name });
    const text = await file.text();
    const review = $('review').value;
    try {
      view = await post('record/open', {
        text, format: formatFor(file.name), review_plies: review === '' ? null : Number(review),
      });
    } catch (e) {
      view = null;
      showError(`${file.name}: ${e.message}`);
      $('status').textContent = t('recNoFile');
      return;
    }
    listSteps();
    go(0);
  }

  // The list of the file's actions (written again when the language changes).
  function listSteps() {
    const list = $('steps');
    list.replaceChildren();
    view.steps.forEach((s, i) => {
      const li = document.createElement('li');
      const marks = [s.cube_review && s.cube_review.mark, s.review && s.review.mark].filter((m) => m);
      const mark = marks.length ? ` — ${marks.map((m) => LANG.word('mark', m)).join(', ')}` : '';
      li.textContent = t('recStep', { game: s.game, turn: s.turn, text: describe(s), mark });
      li.dataset.step = i;
      if (marks.length) li.className = worst(marks).replace(' ', '-');
      li.addEventListener('click', () => go(i));
      list.append(li);
    });
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
    $('status').textContent = t('recStatus', {
      p0: view.players[0], s0: s.score[0], s1: s.score[1], p1: view.players[1],
      length: view.length ? t('recMatchTo', { n: view.length }) : t('recMoney'), game: s.game,
      crawford: g.crawford ? t('recCrawford') : '', cube: s.cube,
    });
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
      const luck = t('recLuck', { luck: r.luck.toFixed(3), mark: r.luck_mark ? ` (${LANG.word('mark', r.luck_mark)})` : '' });
      q.textContent = r.forced ? t('recForced', { luck })
        : r.loss === 0 ? t('recBest', { eq: r.equity_played.toFixed(3), luck })
        : t('recLoss', {
          eq: r.equity_played.toFixed(3), best: r.best, beq: r.equity_best.toFixed(3), mp: r.loss_mp.toFixed(1),
          mwc: r.mwc !== null && r.mwc !== undefined ? t('recMwc', { x: r.mwc.toFixed(2) }) : '',
          mark: r.mark ? `, ${LANG.word('mark', r.mark)}` : '', luck,
        });
      box.append(q);
    }
    document.querySelectorAll('#steps li').forEach((li) => li.classList.toggle('current', Number(li.dataset.step) === index));
    const cur = document.querySelector('#steps li.current');
    if (cur) cur.scrollIntoView({ block: 'nearest' });
    $('first').disabled = $('prev').disabled = index === 0;
    $('last').disabled = $('next').disabled = index === view.steps.length - 1;
  }

  LANG.init($('lang'), () => {
    if (!view) return;
    listSteps();
    go(index);
  });
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
