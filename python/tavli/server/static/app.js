// tavli web page: a person plays against the engine (White, or Black in single games), or two people
// play each other at one screen, through the HTTP API (/api/v1/...).
//
// No game logic lives here: the legal plays come from POST /api/v1/plays, the board drawing from
// POST /api/v1/render, the engine's plays from POST /api/v1/move (with the cube, the cube and score
// and eval_mode cubeful: cubeful checker play) or /match/move (played to the score), cube decisions
// from POST /api/v1/cube. The page only matches the person's clicks against the legal plays' steps,
// keeps a history for Undo, and in a money game of a game with a cube keeps the cube's value and
// owner (the engine doubles when /cube says so, before its roll, and answers the person's doubles
// with /cube's take or pass; a game's points are its result times the cube). "Match with the cube"
// (cubematch:<variant>) adds those points to a score kept here, with the Crawford game.
//
// Frames: steps are route indices of the side to move, which is White (the person) whenever the
// person moves: route index r is point 24 - r from White's view, the bar is -1, off is 24.
//
// Reproducible dice: with ?seed=N in the address, roll k of a game (k = 0, 1, 2, ... counting the
// person's, the engine's and opening rolls) asks the server for the seed N * 1,000,000 + k, so the
// same N and the same plays give the same game.
'use strict';

(() => {
  const API = '/api/v1/';
  const SEED_STRIDE = 1000000;
  const MAX_SEED_BASE = 999999999; // keeps N * SEED_STRIDE + k an exact JavaScript integer
  const TIME_LIMIT = 5.0; // seconds: the server's cap for a search
  const HINT_COUNT = 5;
  const MAX_UNDO = 30; // turns the person can take back
  const MAX_CUBE = 32768;
  const BAR = -1;
  const OFF = 24;
  // The person's colour and the engine's: White and Black unless the person chose Black (single
  // games). Two people on one screen ("both"): HUMAN is the side to move, the board turned to it.
  let HUMAN = 0;
  let ENGINE = 1;
  let hotseat = false;
  const NAMES = {
    fevga: 'Fevga', moultezim: 'Moultezim', plakoto: 'Plakoto', portes: 'Portes', tavla: 'Tavla',
    backgammon: 'Backgammon', narde: 'Long Narde', jacquet: 'Jacquet', tawla31: 'Tawla 31',
    nackgammon: 'Nackgammon', hypergammon: 'Hypergammon', tavli: 'Tavli (Portes, Plakoto, Fevga)',
  };
  // ---------------------------------------------------------------- language (lang.js, i18n.js)
  const LANG = window.TAVLI_LANG;
  const { t } = LANG;

  const COLOURS = ['White', 'Black']; // class names and the API's words; shown through colourName
  const colourName = (side) => t(side === 0 ? 'white' : 'black');
  // "You (White)", "Engine (Black)"; two people: "White", "Black".
  const sideName = (side) => (hotseat ? colourName(side)
    : t(side === HUMAN ? 'youSide' : 'engineSide', { colour: colourName(side) }));

  // After a language switch: what is on screen is written again in the new language.
  function languageChanged() {
    if (state.phase === 'loading') return;
    describe();
    renderLog();
    updateControls();
    if (state.position) showPips(state.phase === 'next' ? state.finished.position : state.position);
    fillVariants();
    showRuleOptions();
    if (!$('hints').hidden && state.hint) showHint();
    if (!$('rollout-result').hidden && state.rolloutResult) showRollout();
    if (!$('choices').hidden) refreshChoices();
  }

  // Whose point numbers the move list uses: the person's, or White's between two people.
  const logViewer = () => (hotseat ? 0 : HUMAN);
  // Each game's facts, from GET /api/v1/variants (the core's variant table): its rule options,
  // "cube" (played with the doubling cube), "movement" ("parallel": the sides move the same way
  // round, the other side's route index r' is White's (r' + 12) % 24; "contrary": 23 - r'),
  // "opening" ("use_opening_dice": the starter plays the opening roll; "reroll": the starter rolls
  // both dice again; RULES.md D-OPENING) and "match_target"; the match kinds' targets beside them.
  const variantInfo = new Map();
  const matchTargets = new Map();
  const facts = (variant) => variantInfo.get(variant) || {};
  // A position's movement: its movement option where the game has one (Tawla 31), else the game's.
  const movesParallel = (position) => ((position.options || {}).movement || facts(position.variant).movement) === 'parallel';

  const $ = (id) => document.getElementById(id);
  // A game's name: its own in the page's language where i18n.js has one (name_<game>).
  const nameOf = (v) => LANG.own(`name_${v}`) || NAMES[v] || (v.charAt(0).toUpperCase() + v.slice(1));
  // A point in move notation (data attributes, the mover's steps), and in words for messages.
  const pointName = (r) => (r === BAR ? 'bar' : r === OFF ? 'off' : String(24 - r));
  const pointWord = (r) => (r === BAR ? t('barWord') : r === OFF ? t('offWord') : String(24 - r));
  const highFirst = (d) => (d[0] >= d[1] ? [d[0], d[1]] : [d[1], d[0]]);
  const diceText = (d) => (d ? highFirst(d).join('-') : ''); // dice are shown high die first
  const clone = (x) => JSON.parse(JSON.stringify(x));

  // ---------------------------------------------------------------- state
  const state = {
    mode: 'game', // 'game' (one game) or 'match'
    variant: null, // the current game's variant
    plies: 1,
    position: null, // position dict of the current game
    id: null, // its ID
    turn: 0,
    outcome: null, // single game: null or {winner, points, kind}
    match: null, // match state from /api/v1/match/*
    awaitingNext: false, // match: a game just ended, the person presses "Next game"
    dice: null, // the person's dice while moving
    plays: [], // legal plays for those dice (play dicts)
    moves: [], // the person's steps so far: [{from, to}] (a move may span several dice)
    selected: null, // route index of the chosen source, or null
    last: null, // the last play made: {player, dice, play, before (position dict)}
    history: [], // the state at each of the person's rolls, taken when they play: Undo of a turn pair
    log: [], // [{player, dice, text, steps}]
    rolls: 0, // rolls made in this game (seeded dice)
    cube: null, // money game of a cube game: {value, owner: null (centred) | 0 | 1}
    offer: null, // the engine has doubled: {value} until the person takes or passes
    engineConsidered: false, // the engine made its cube decision for this turn
    cubeMatch: null, // a match of single games with the cube: {target, score, crawford, crawfordDone}
    phase: 'loading',
  };
  let seedBase = null;
  let busy = false;
  let drawToken = 0;

  // ---------------------------------------------------------------- server calls
  class ApiError extends Error {}

  async function api(path, body) {
    const init = body === undefined ? {}
      : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
    let res;
    try {
      res = await fetch(API + path, init);
    } catch (e) {
      throw new ApiError(t('errUnreachable', { path, message: e.message }));
    }
    if (!res.ok) {
      let detail = res.statusText || 'error';
      try {
        const j = await res.json();
        const e = j.error !== undefined ? j.error : j.detail;
        if (e && typeof e === 'object' && !Array.isArray(e)) {
          detail = e.field ? `${e.field}: ${e.message}` : (e.message || JSON.stringify(e));
        } else if (e !== undefined) {
          detail = typeof e === 'string' ? e : JSON.stringify(e);
        }
      } catch (_) { /* not JSON: keep the status text */ }
      throw new ApiError(t('errHttp', { path, status: res.status, detail }));
    }
    return path === 'render' ? res.text() : res.json();
  }

  // A roll of both dice, high die first; `asRolled` keeps the order (an opening roll: White's
  // die, Black's die).
  async function roll(asRolled = false) {
    const body = seedBase === null ? {} : { seed: seedBase * SEED_STRIDE + state.rolls };
    state.rolls += 1;
    const r = await api('roll', body);
    return asRolled ? r.dice : highFirst(r.dice);
  }

  // ---------------------------------------------------------------- messages
  function showError(message) {
    const el = $('error');
    el.textContent = message;
    el.hidden = false;
  }

  function clearError() {
    $('error').hidden = true;
    $('error').textContent = '';
  }

  function setStatus(text) {
    $('status').textContent = text;
  }

  // Runs one user action: one at a time, errors shown (never swallowed), controls refreshed.
  async function run(action) {
    if (busy) return;
    busy = true;
    updateControls();
    clearError();
    try {
      await action();
    } catch (e) {
      showError(e instanceof ApiError ? e.message : t('errUnexpected', { message: e && e.message ? e.message : e }));
      console.error(e);
    } finally {
      busy = false;
      updateControls();
    }
  }

  // ---------------------------------------------------------------- matching clicks to plays
  // Ways to take a move from -> to out of `steps` (a chain of steps through intermediate points):
  // each way is the list of steps left over.
  function chainRemainders(steps, from, to) {
    const out = [];
    steps.forEach((s, i) => {
      if (s[0] !== from) return;
      const rest = steps.slice(0, i).concat(steps.slice(i + 1));
      if (s[1] === to) out.push(rest);
      else if (s[1] >= 0 && s[1] < OFF) chainRemainders(rest, s[1], to).forEach((r) => out.push(r));
    });
    return out;
  }

  // The steps a play has left after the person's moves, for every way the moves fit it (in any
  // order of the play's steps); empty when they do not fit.
  function remainders(play, moves) {
    let ways = [play.steps.map((s) => [s[0], s[1]])];
    for (const m of moves) {
      const next = [];
      for (const w of ways) chainRemainders(w, m.from, m.to).forEach((r) => next.push(r));
      // Doubles repeat a step: keep each leftover multiset once.
      const seen = new Set();
      ways = next.filter((w) => {
        const key = w.map((s) => `${s[0]}/${s[1]}`).sort().join(' ');
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
      if (!ways.length) break;
    }
    return ways;
  }

  function candidates() {
    return state.plays.filter((p) => remainders(p, state.moves).length > 0);
  }

  // White's checkers at route index r after the person's moves so far (to offer only points that
  // hold one of them as a source).
  function available(r) {
    const pos = state.position;
    let n = r === BAR ? pos.bar[0] : pos.mover[r];
    for (const m of state.moves) {
      if (m.from === r) n -= 1;
      if (m.to === r) n += 1;
    }
    return n;
  }

  // Where the person may take a checker from next: with one of theirs on the bar, only the bar
  // (every rule book: a checker on the bar enters before any other moves).
  function sources() {
    const out = new Set();
    for (const p of candidates()) {
      for (const w of remainders(p, state.moves)) {
        for (const s of w) if (available(s[0]) > 0) out.add(s[0]);
      }
    }
    return out.has(BAR) && available(BAR) > 0 ? new Set([BAR]) : out;
  }

  function targets(from) {
    const out = new Set();
    const walk = (steps, at) => {
      steps.forEach((s, i) => {
        if (s[0] !== at) return;
        out.add(s[1]);
        if (s[1] >= 0 && s[1] < OFF) walk(steps.slice(0, i).concat(steps.slice(i + 1)), s[1]);
      });
    };
    for (const p of candidates()) for (const w of remainders(p, state.moves)) walk(w, from);
    return out;
  }

  // ---------------------------------------------------------------- the board
  // What to draw now: the position, its dice, a legal play's arrows (the renderer draws a play on
  // the position it is made from) and the highlighted points.
  function boardView() {
    const view = { position: state.position, id: state.id, dice: null, play: null, highlight: [] };
    if (state.phase === 'move') {
      view.dice = state.dice;
      const points = state.selected === null ? sources() : targets(state.selected);
      // The API takes point numbers; the bar and the tray are marked here (decorate).
      view.highlight = [...points].filter((r) => r >= 0 && r < OFF).map((r) => 24 - r);
      view.marked = [...points].filter((r) => r === BAR || r === OFF);
    } else if (state.phase === 'next') {
      view.position = state.finished.position; // the finished game's last position
      view.id = state.finished.id;
    } else if (state.phase === 'roll' && state.last) {
      // The last play, on the position it was made from, with its dice and arrows; the position
      // it led to shows from the next roll on.
      view.position = state.last.before;
      view.id = state.last.beforeId;
      view.dice = state.last.dice;
      if (state.last.play.steps.length) view.play = { steps: state.last.play.steps, dice: state.last.dice };
    }
    return view;
  }

  async function draw() {
    const token = ++drawToken;
    const view = boardView();
    const body = { position: view.position, viewer: HUMAN, highlight: view.highlight };
    if (view.dice) body.dice = highFirst(view.dice);
    if (view.play) body.play = view.play;
    if (state.cube) body.cube = state.cube;
    const text = await api('render', body);
    if (token !== drawToken) return; // a newer drawing superseded this one
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    const root = doc.documentElement;
    if (root.nodeName !== 'svg' || doc.getElementsByTagName('parsererror').length) {
      throw new ApiError(t('errNotSvg'));
    }
    const svg = document.importNode(root, true);
    svg.setAttribute('role', 'group');
    svg.setAttribute('aria-label', t('boardLabel', { game: nameOf(state.variant || '') }));
    svg.removeAttribute('width');
    svg.removeAttribute('height');
    const board = $('board');
    const focused = document.activeElement && board.contains(document.activeElement)
      ? document.activeElement.closest('[data-point]') : null;
    const focusKey = focused ? `${focused.getAttribute('data-point')}:${focused.getAttribute('data-side')}` : null;
    board.replaceChildren(svg);
    board.dataset.id = state.id || '';
    board.dataset.shownId = view.id || '';
    board.dataset.variant = state.variant || '';
    board.dataset.turn = String(state.turn);
    board.dataset.dice = diceText(view.dice);
    showPips(state.phase === 'next' ? view.position : state.position); // the position now, not the one drawn under arrows
    decorate(svg, view);
    if (focusKey) { // keyboard play: keep the focus on the same region of the new drawing
      const again = [...svg.querySelectorAll('[data-point]')]
        .find((g) => `${g.getAttribute('data-point')}:${g.getAttribute('data-side')}` === focusKey);
      if (again && again.getAttribute('tabindex') !== null) again.focus();
    }
  }

  // Pips still to travel, each side in its own frame: a checker on route index r has 24 - r to
  // go, one on the bar 25 (RULES.md §1.1; 167 each at the backgammon start).
  function pipCount(counts, bar) {
    return counts.reduce((sum, n, r) => sum + n * (24 - r), 25 * bar);
  }

  function showPips(pos) {
    const el = $('pips');
    if (!pos) { el.hidden = true; return; }
    const mover = pipCount(pos.mover, pos.bar[0]);
    const opponent = pipCount(pos.opponent, pos.bar[1]);
    const [white, black] = pos.turn === HUMAN ? [mover, opponent] : [opponent, mover];
    el.textContent = t('pips', { white: t('pipsOf', { side: sideName(0), n: white }),
                                 black: t('pipsOf', { side: sideName(1), n: black }) });
    el.dataset.white = String(white);
    el.dataset.black = String(black);
    el.hidden = false;
  }

  // Makes the clickable regions reachable by keyboard, marks the chosen source and draws the
  // person's steps so far as dashed arrows (the renderer draws only whole legal plays).
  function decorate(svg, view) {
    const regions = new Map();
    svg.querySelectorAll('[data-point]').forEach((g) => {
      const r = routeOf(g);
      if (r === null) return;
      regions.set(r, g);
      if (state.phase === 'move') {
        g.setAttribute('tabindex', '0');
        g.setAttribute('role', 'button');
        g.setAttribute('aria-label', r === BAR ? t('ariaBar') : r === OFF ? t('ariaOff') : t('ariaPoint', { n: 24 - r }));
      }
      if (r === state.selected) g.classList.add('selected');
      if ((view.marked || []).includes(r)) g.classList.add('highlight');
    });
    if (state.phase !== 'move' || !state.moves.length) return;
    drawPendingSteps(svg, regions);
  }

  // The person's steps so far, drawn over the position (the renderer draws only whole legal
  // plays): checkers that left fade, checkers that arrived show as dashed ghosts, and a dashed
  // arrow per step. Geometry only: which steps are legal is the server's business.
  function drawPendingSteps(svg, regions) {
    const ns = 'http://www.w3.org/2000/svg';
    const net = new Map(); // route index -> arrivals minus departures
    for (const m of state.moves) {
      net.set(m.from, (net.get(m.from) || 0) - 1);
      net.set(m.to, (net.get(m.to) || 0) + 1);
    }
    const layer = document.createElementNS(ns, 'g');
    layer.setAttribute('class', 'pending');
    // Where the checker in `slot` (0 = at the base) of a point sits; the middle of the bar or tray.
    const slotAt = (r, slot) => {
      const g = regions.get(r);
      const tri = g.querySelector('.triangle');
      if (!tri) {
        const box = g.getBBox();
        return [box.x + box.width / 2, box.y + box.height / 2];
      }
      const pts = tri.getAttribute('points').trim().split(/\s+/).map((p) => p.split(',').map(Number));
      const [tipX, tipY] = pts[2];
      const baseY = pts[0][1];
      const radius = Number((g.querySelector('circle.checker') || { getAttribute: () => 19 }).getAttribute('r')) + 1;
      const dir = tipY > baseY ? 1 : -1;
      return [tipX, baseY + dir * radius * (1 + 2 * Math.min(slot, 4))];
    };
    const drawn = (r) => (regions.has(r) ? regions.get(r).querySelectorAll('circle.checker').length : 0);
    const ghosts = new Map();
    for (const [r, n] of net) {
      if (!regions.has(r)) continue;
      if (n < 0) {
        const mine = [...regions.get(r).querySelectorAll(`circle.checker.${COLOURS[HUMAN].toLowerCase()}`)];
        mine.slice(Math.max(0, mine.length + n)).forEach((c) => c.classList.add('leaving'));
      } else if (n > 0 && r !== OFF) {
        for (let i = 0; i < n; i += 1) {
          const [cx, cy] = slotAt(r, drawn(r) + i);
          const c = document.createElementNS(ns, 'circle');
          c.setAttribute('class', 'ghost');
          c.setAttribute('cx', cx);
          c.setAttribute('cy', cy);
          c.setAttribute('r', 18);
          layer.appendChild(c);
        }
        ghosts.set(r, 0);
      }
    }
    const departed = new Map();
    for (const m of state.moves) {
      if (!regions.has(m.from) || !regions.has(m.to)) continue;
      const k = departed.get(m.from) || 0;
      departed.set(m.from, k + 1);
      const [x1, y1] = slotAt(m.from, Math.max(drawn(m.from) - 1 - k, 0));
      const g = ghosts.get(m.to) || 0;
      ghosts.set(m.to, g + 1);
      const [x2, y2] = slotAt(m.to, drawn(m.to) + g);
      const path = document.createElementNS(ns, 'path');
      path.setAttribute('class', 'pending-arrow');
      path.setAttribute('data-from', pointName(m.from));
      path.setAttribute('data-to', pointName(m.to));
      path.setAttribute('d', `M ${x1} ${y1} L ${x2} ${y2}`);
      path.setAttribute('marker-end', 'url(#pending-head)');
      layer.appendChild(path);
    }
    const defs = document.createElementNS(ns, 'defs');
    defs.innerHTML = '<marker id="pending-head" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="4" '
      + 'markerHeight="4" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" class="pending-head"/></marker>';
    svg.insertBefore(defs, svg.firstChild);
    svg.appendChild(layer);
  }

  // The route index (White's) of a clickable region, or null (Black's tray, not a region).
  function routeOf(el) {
    const p = el.getAttribute('data-point');
    if (p === 'bar') return BAR;
    if (p === 'off') return el.getAttribute('data-side') === String(HUMAN) ? OFF : null;
    const n = Number(p);
    return Number.isInteger(n) && n >= 1 && n <= 24 ? 24 - n : null;
  }

  function onBoardClick(event) {
    const g = event.target.closest ? event.target.closest('[data-point]') : null;
    if (!g || !$('board').contains(g)) return;
    const r = routeOf(g);
    if (r !== null) run(() => choose(r));
  }

  function onBoardKey(event) {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    const g = event.target.closest ? event.target.closest('[data-point]') : null;
    if (!g) return;
    event.preventDefault();
    const r = routeOf(g);
    if (r !== null) run(() => choose(r));
  }

  // One click on route index r while the person is moving.
  async function choose(r) {
    if (state.phase !== 'move') return;
    if (state.selected === null) {
      if (sources().has(r)) {
        state.selected = r;
      } else {
        setStatus(t('noStep', { point: pointWord(r), help: moveHelp() }));
        return;
      }
    } else if (r === state.selected) {
      state.selected = null; // a second click on the source lets it go
    } else if (targets(state.selected).has(r)) {
      state.moves.push({ from: state.selected, to: r });
      state.selected = null;
      const left = candidates();
      if (left.length === 1) {
        await humanPlays(left[0]);
        return;
      }
      refreshChoices();
    } else if (sources().has(r)) {
      state.selected = r;
    } else {
      setStatus(t('notStep', { a: pointWord(state.selected), b: pointWord(r), help: moveHelp() }));
      return;
    }
    describe();
    await draw();
  }

  // When the steps so far complete a play but more than one play still fits them (the same
  // checkers hitting on different points, or a bear-off that may or may not use the other die),
  // the person picks the complete play by a button, or goes on clicking.
  function refreshChoices() {
    const left = state.moves.length ? candidates() : [];
    const complete = left.filter((p) => remainders(p, state.moves).some((w) => w.length === 0));
    showChoices(left.length > 1 ? complete : []);
  }

  function showChoices(complete) {
    const box = $('choice-buttons');
    box.replaceChildren();
    $('choices-text').textContent = t(complete.length > 1 ? 'choicesMany' : 'choicesWhole');
    for (const p of complete) {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = p.text;
      b.dataset.testid = 'choice';
      b.addEventListener('click', () => run(() => humanPlays(p)));
      box.appendChild(b);
    }
    $('choices').hidden = complete.length === 0;
  }

  // ---------------------------------------------------------------- game flow
  function forcedDice() {
    if (state.mode !== 'match') return state.openingDice; // a single game's opening roll, where it is played
    return state.match && state.match.phase === 'playing' ? state.match.forced_dice : null;
  }

  // The same position with the other side to move: the sides' counts are each in their own frame,
  // so they swap places (a single game the engine starts).
  function otherSideToMove(pos) {
    const p = clone(pos);
    p.mover = pos.opponent;
    p.opponent = pos.mover;
    for (const k of ['bar', 'off', 'pinned', 'first_turn']) if (pos[k]) p[k] = [pos[k][1], pos[k][0]];
    p.turn = 1 - pos.turn;
    return p;
  }

  function isParallel() {
    return movesParallel(state.position);
  }

  // Move text from the viewer's seat: a play's text numbers the points from its mover's side (as
  // GNU Backgammon writes it); each point number of the other side's becomes the viewer's (bar,
  // off, hits and counts stay). Its point n is its route 24 - n.
  function viewerText(text, player, parallel, viewer = logViewer()) {
    if (player === viewer) return text;
    const white = (n) => (parallel ? 24 - ((36 - n) % 24) : 25 - n);
    return text.replace(/(^|[ /])(\d+)/g, (m, pre, n) => pre + white(Number(n)));
  }

  function isOver() {
    return state.mode === 'match' ? state.match.phase === 'over' : state.outcome !== null && !state.awaitingNext;
  }

  async function newGame() {
    const choice = $('variant').value;
    state.plies = Number($('strength').value);
    const side = $('side').value; // matches: the person is White
    hotseat = !choice.startsWith('match:') && side === 'both';
    HUMAN = !choice.startsWith('match:') && side === '1' ? 1 : 0;
    ENGINE = 1 - HUMAN;
    Object.assign(state, {
      outcome: null, match: null, awaitingNext: false, dice: null, plays: [], moves: [], selected: null,
      opening: false, openingDice: null, options: null,
      last: null, history: [], log: [], rolls: 0, cube: null, offer: null, engineConsidered: false, cubeMatch: null,
    });
    $('hints').hidden = true;
    $('rollout-result').hidden = true;
    showChoices([]);
    if (choice.startsWith('match:')) {
      state.mode = 'match';
      const body = { kind: choice.slice(6) };
      const target = $('target').value.trim();
      if (target !== '') body.target = Number(target);
      applyMatch(await api('match/new', body));
    } else {
      state.mode = 'game';
      $('save-box').hidden = true; // single games save as a game record (Save game)
      let variant = choice;
      if (choice.startsWith('cubematch:')) {
        variant = choice.slice(10);
        const target = Number($('target').value) || 1;
        state.cubeMatch = { target, score: [0, 0], crawford: target === 1, crawfordDone: target === 1 };
      }
      await newSingleGame(variant);
    }
    renderLog();
    await advance();
  }

  async function newSingleGame(variant) {
    if (variant !== state.variant || !state.options) state.options = ruleOptions(variant);
    const r = await api('new', { variant, options: state.options });
    state.position = r.position;
    state.id = r.id;
    state.variant = r.position.variant;
    state.turn = r.position.turn;
    state.outcome = null;
    // Two people on one screen play without the cube (the engine answers doubles here).
    state.cube = facts(state.variant).cube && !hotseat ? { value: 1, owner: null } : null;
    // A game from its start opens with one die each. Every start is the same for both sides in
    // their own frames; a position set up otherwise (a test's, a loaded one) has no opening roll.
    const p = state.position;
    state.start = state.position; // the record's start: the position before the first play
    state.opening = state.turn === 0 && JSON.stringify(p.mover) === JSON.stringify(p.opponent)
      && !p.bar[0] && !p.bar[1] && !p.off[0] && !p.off[1];
    state.openingDice = null;
  }

  // A single game as the project's JSON game record (Board.to_record, "tavli.game" in
  // tavli-v1.schema.json): the start and every play; Board.from_record replays it.
  function gameRecord() {
    const plays = state.log.filter((e) => e.player !== undefined)
      .map((e) => ({ dice: e.dice, steps: e.steps, play: e.text }));
    return { format: 'tavli.game', version: 1, start: state.start, plays, result: state.outcome ? state.result : null };
  }

  function download(text, name) {
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
    link.download = name;
    link.click();
    URL.revokeObjectURL(link.href);
  }

  async function saveGame() {
    if (state.mode !== 'game' || !state.start) return;
    download(`${JSON.stringify(gameRecord(), null, 1)}\n`, `tavli-${state.variant}.json`);
  }

  // A saved game record, replayed play by play through POST /play (the server checks each), then
  // played on from its last position. Its cube is not recorded: a cube game goes on centred.
  async function loadGame(file) {
    let record;
    try {
      record = JSON.parse(await file.text());
    } catch (e) {
      throw new ApiError(t('errNotJson', { file: file.name, message: e.message }));
    }
    if (!record || record.format !== 'tavli.game' || !record.start || !Array.isArray(record.plays)) {
      throw new ApiError(t('errNotRecord', { file: file.name }));
    }
    let position = record.start;
    let id = null;
    let outcome = null;
    const log = [];
    for (const [i, p] of record.plays.entries()) {
      if (outcome) throw new ApiError(t('errAfterEnd', { file: file.name, n: i + 1 }));
      const r = await api('play', { position, dice: p.dice, play: { steps: p.steps, dice: p.dice } });
      const made = r.play || p;
      log.push({ player: position.turn, dice: p.dice, text: made.text || p.play, steps: p.steps, id: r.id,
                 parallel: movesParallel(position) });
      ({ position, id } = r);
      outcome = r.outcome || null;
    }
    Object.assign(state, {
      mode: 'game', match: null, cubeMatch: null, awaitingNext: false, dice: null, plays: [], moves: [], selected: null,
      last: null, history: [], log, rolls: log.length, offer: null, engineConsidered: false, opening: false,
      openingDice: null, options: record.start.options || {}, start: record.start, position, id,
      variant: position.variant, turn: position.turn, outcome, result: outcome,
    });
    hotseat = $('side').value === 'both';
    if (hotseat) [HUMAN, ENGINE] = [state.turn, 1 - state.turn];
    state.cube = facts(state.variant).cube && !hotseat ? { value: 1, owner: null } : null;
    if (outcome) log.push({ result: outcome, variant: state.variant });
    $('save-box').hidden = true;
    $('hints').hidden = true;
    showChoices([]);
    renderLog();
    await advance();
  }

  // A match's finished games as a file (POST record/save), downloaded by the browser.
  async function saveMatch() {
    if (state.mode !== 'match' || !state.match) return;
    const format = $('save-format').value;
    const r = await api('record/save', { record: state.match.record, format });
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([r.text], { type: 'text/plain' }));
    link.download = `tavli-match.${format}`;
    link.click();
    URL.revokeObjectURL(link.href);
  }

  function applyMatch(ms) {
    $('save-box').hidden = false;
    state.match = ms;
    state.position = ms.position;
    state.id = ms.id;
    state.variant = ms.variant || ms.position.variant;
    state.turn = ms.turn;
  }

  // Moves the game on until the person has something to do, then draws the board.
  async function advance() {
    for (let guard = 0; guard < 8; guard += 1) {
      if (isOver()) { setPhase('over'); break; }
      if (state.awaitingNext) { setPhase('next'); break; }
      if (state.mode === 'match' ? state.match.phase === 'opening' : state.opening) { setPhase('opening'); break; }
      if (state.offer) { setPhase('answer'); break; }
      if (hotseat && state.turn !== HUMAN) { [HUMAN, ENGINE] = [state.turn, 1 - state.turn]; } // the board turns
      if (state.turn === ENGINE) { await engineTurn(); continue; }
      if (!state.dice && forcedDice()) { await startTurn(forcedDice()); continue; }
      setPhase(state.dice ? 'move' : 'roll');
      break;
    }
    await draw();
  }

  function setPhase(phase) {
    state.phase = phase;
    $('board').dataset.phase = phase;
    describe();
    updateControls();
  }

  async function startTurn(dice) {
    state.dice = dice;
    state.moves = [];
    state.selected = null;
    const r = await api('plays', { position: state.position, dice });
    state.plays = r.plays;
  }

  // The Roll button: the opening roll of a match game, the next game of a match, or the person's roll.
  async function rollButton() {
    if (state.phase === 'opening' && state.mode !== 'match') {
      await singleGameOpening(await roll(true));
    } else if (state.phase === 'opening') {
      const dice = await roll(true);
      const before = state.match;
      applyMatch(await api('match/opening', { record: before.record, dice }));
      const decided = state.match.phase !== 'opening';
      addLog({ opening: true, dice, text: { key: !decided ? 'tie' : dice[0] > dice[1] ? 'youStart' : 'engineStarts' } });
    } else if (state.phase === 'next') {
      state.awaitingNext = false;
      state.last = null;
      if (state.cubeMatch) await newSingleGame(state.variant);
    } else if (state.phase === 'roll') {
      await startTurn(await roll());
    } // 'engine': the engine's last request failed; advance() asks again

    $('hints').hidden = true;
    await advance();
  }

  // One die each (White's, Black's): the higher starts, ties roll again. Where the game plays its
  // opening roll the starter plays those two dice, else the starter rolls both dice.
  async function singleGameOpening(dice) {
    if (dice[0] === dice[1]) {
      addLog({ opening: true, dice, text: { key: 'tie' } });
      return;
    }
    const starter = dice[0] > dice[1] ? 0 : 1; // White's die against Black's
    const who = hotseat ? { key: 'sideStarts', side: starter } : { key: starter === HUMAN ? 'youStart' : 'engineStarts' };
    addLog({ opening: true, dice, text: who });
    state.opening = false;
    if (facts(state.variant).opening === 'use_opening_dice') state.openingDice = highFirst(dice);
    if (starter !== state.turn) {
      state.position = otherSideToMove(state.position);
      state.start = state.position;
      state.turn = starter;
      state.id = null; // the first play brings the next ID
    }
  }

  // The person's play: the legal play their steps determined (its own steps are sent).
  async function humanPlays(play) {
    const snapshot = takeSnapshot();
    const before = state.position;
    const beforeId = state.id;
    const dice = state.dice;
    const body = { dice, play: { steps: play.steps, dice } };
    let made;
    if (state.mode === 'match') {
      const ms = await api('match/play', Object.assign({ record: state.match.record }, body));
      made = ms.play || play;
      finishPlay(HUMAN, dice, made, before, beforeId);
      applyMatchAfterPlay(ms, made);
    } else {
      const r = await api('play', Object.assign({ position: before }, body));
      made = r.play || play;
      finishPlay(HUMAN, dice, made, before, beforeId);
      applyGameAfterPlay(r);
    }
    state.history.push(snapshot);
    if (state.history.length > MAX_UNDO) state.history.shift(); // each snapshot holds a whole match record
    $('hints').hidden = true;
    showChoices([]);
    await advance();
  }

  async function engineTurn() {
    setPhase('engine');
    await draw();
    if (!forcedDice() && canDouble(ENGINE) && !state.engineConsidered) {
      const d = await api('cube', cubeRequest());
      state.engineConsidered = true; // one cube decision a turn: after a take it rolls
      if (d.available && d.action.startsWith('double')) {
        state.offer = { value: 2 * state.cube.value };
        addLog({ note: { key: 'noteEngineDoubles', value: state.offer.value } });
        return; // advance() stops at the offer: the person takes or passes
      }
    }
    state.engineConsidered = false;
    const dice = forcedDice() || await roll();
    const before = state.position;
    const beforeId = state.id;
    const search = { dice, plies: state.plies, time_limit: TIME_LIMIT };
    if (state.mode === 'match') {
      const ms = await api('match/move', Object.assign({ record: state.match.record }, search));
      finishPlay(ENGINE, dice, ms.play, before, beforeId);
      applyMatchAfterPlay(ms, ms.play);
    } else {
      const body = Object.assign({ position: before }, search);
      if (state.cube) { // a game with the cube: plays ranked by the cubeful search, at the score if any
        const context = cubeRequest();
        Object.assign(body, { cube: context.cube, eval_mode: 'cubeful' });
        if (context.match) body.match = context.match;
      }
      const r = await api('move', body);
      finishPlay(ENGINE, dice, r.play, before, beforeId);
      applyGameAfterPlay(r);
    }
  }

  function finishPlay(player, dice, play, before, beforeId) {
    state.last = { player, dice, play, before, beforeId };
    $('rollout-result').hidden = true; // it was of the position before this play
    state.openingDice = null;
    state.dice = null;
    state.plays = [];
    state.moves = [];
    state.selected = null;
    addLog({ player, dice, text: play.text, steps: play.steps, id: play.result_id, parallel: isParallel() });
  }

  function applyGameAfterPlay(r) {
    state.position = r.position;
    state.id = r.id;
    state.turn = r.position.turn;
    state.outcome = r.outcome || null;
    state.result = state.outcome; // the game's own result, before the cube multiplies it
    if (state.outcome && state.cube) state.outcome = Object.assign({}, state.outcome, { points: state.outcome.points * state.cube.value });
    if (state.outcome) {
      addLog({ result: state.outcome, variant: state.variant });
      scoreCubeMatch();
    }
  }

  function applyMatchAfterPlay(ms, play) {
    const finished = (state.match.results || []).length;
    const variant = state.variant;
    applyMatch(ms);
    if ((ms.results || []).length > finished) {
      const result = ms.results[ms.results.length - 1];
      addLog({ result, variant });
      // Show the finished game's last position until the person starts the next game.
      state.awaitingNext = ms.phase !== 'over';
      state.finished = { position: play.result, id: play.result_id, variant, result };
    }
  }

  // ---------------------------------------------------------------- the cube (money play)
  function canDouble(side) {
    const c = state.cube;
    if (state.cubeMatch && state.cubeMatch.crawford) return false; // no doubling in the Crawford game
    return !!c && !isOver() && (c.owner === null || c.owner === side) && 2 * c.value <= MAX_CUBE;
  }

  // The body of a /cube request: the position to move, the cube, and the match score if any; the
  // decision by the cubeful search at the engine's depth (docs/server.md).
  function cubeRequest() {
    const body = { position: state.position, cube: state.cube, plies: state.plies, eval_mode: 'cubeful' };
    const m = state.cubeMatch;
    if (m) body.match = { length: m.target, score: m.score, crawford: m.crawford };
    return body;
  }

  function endByPass(winner, points) {
    state.outcome = { winner, points, kind: 'pass' };
    addLog({ result: state.outcome, variant: state.variant });
    scoreCubeMatch();
  }

  // A game of a match with the cube has ended: its points to the winner; the match goes on to a
  // next game (the Crawford game right after a side first reaches one-away) or is over.
  function scoreCubeMatch() {
    const m = state.cubeMatch;
    if (!m || !state.outcome || state.outcome.winner === null) return;
    m.score[state.outcome.winner] += state.outcome.points;
    if (Math.max(...m.score) >= m.target) return; // the match is over
    const oneAway = m.score.some((x) => x === m.target - 1);
    m.crawford = oneAway && !m.crawfordDone;
    if (m.crawford) m.crawfordDone = true;
    state.awaitingNext = true;
    state.finished = { position: state.position, id: state.id, variant: state.variant, result: state.outcome };
  }

  // The Double button, before the person's roll: the engine answers with /cube's take decision.
  async function humanDoubles() {
    if (state.phase !== 'roll' || !canDouble(HUMAN)) return;
    const d = await api('cube', cubeRequest());
    const value = 2 * state.cube.value;
    if (!d.available) {
      setStatus(t('cannotDouble', { reason: d.action }));
      return;
    }
    if (d.take === 'pass') {
      addLog({ note: { key: 'noteYouDoublePass', value } });
      endByPass(HUMAN, state.cube.value);
    } else {
      state.cube = { value, owner: ENGINE };
      addLog({ note: { key: 'noteYouDoubleTake', value } });
    }
    await advance();
  }

  // The Take and Pass buttons, when the engine has doubled.
  async function answerDouble(take) {
    if (state.phase !== 'answer' || !state.offer) return;
    const { value } = state.offer;
    state.offer = null;
    if (take) {
      state.cube = { value, owner: HUMAN };
      addLog({ note: { key: 'noteYouTake', value } });
    } else {
      addLog({ note: { key: 'noteYouPass' } });
      endByPass(ENGINE, value / 2);
    }
    await advance();
  }

  function describeCube() {
    const el = $('cube-info');
    const c = state.cube;
    el.hidden = !c;
    if (!c) return;
    const owner = t(c.owner === null ? 'cubeCentre' : c.owner === HUMAN ? 'cubeYours' : 'cubeEngines');
    el.textContent = t('cube', { value: c.value, owner });
    el.dataset.value = String(c.value);
    el.dataset.owner = c.owner === null ? 'centre' : String(c.owner);
  }

  // ---------------------------------------------------------------- undo and history
  function takeSnapshot() {
    return clone({
      position: state.position, id: state.id, turn: state.turn, outcome: state.outcome, match: state.match,
      variant: state.variant, dice: state.dice, plays: state.plays, last: state.last, log: state.log,
      rolls: state.rolls, awaitingNext: state.awaitingNext, cube: state.cube, engineConsidered: false,
      cubeMatch: state.cubeMatch,
    });
  }

  async function undo() {
    if (state.phase === 'move' && (state.moves.length || state.selected !== null)) {
      if (state.selected !== null) state.selected = null;
      else state.moves.pop();
      refreshChoices();
      describeMove();
      await draw();
      return;
    }
    const snap = state.history.pop();
    if (!snap) return;
    Object.assign(state, snap, { moves: [], selected: null });
    if (hotseat) [HUMAN, ENGINE] = [state.turn, 1 - state.turn];
    $('hints').hidden = true;
    showChoices([]);
    renderLog();
    setPhase('move');
    await draw();
  }

  function canUndo() {
    if (state.phase === 'move' && (state.moves.length || state.selected !== null)) return true;
    return state.history.length > 0 && ['move', 'roll', 'over', 'next'].includes(state.phase);
  }

  // ---------------------------------------------------------------- hints
  async function hint() {
    state.hint = await api('analyze', {
      position: state.position, dice: state.dice, plies: state.plies, time_limit: TIME_LIMIT, top: HINT_COUNT,
    });
    showHint();
  }

  // The hint table of the last analysis (drawn again when the language changes).
  function showHint() {
    const a = state.hint;
    const entries = a.plays;
    const body = $('hints').querySelector('tbody');
    body.replaceChildren();
    entries.slice(0, HINT_COUNT).forEach((e, i) => {
      const { play } = e;
      const probs = e.probabilities || {};
      const tr = document.createElement('tr');
      tr.dataset.testid = 'hint-row';
      tr.dataset.play = play.text;
      tr.dataset.equity = String(e.equity);
      const cells = [
        String(i + 1),
        play.text,
        (e.equity >= 0 ? '+' : '') + Number(e.equity).toFixed(3),
        typeof probs.win === 'number' ? `${(100 * probs.win).toFixed(1)}%` : '',
      ];
      cells.forEach((c, j) => {
        const td = document.createElement('td');
        td.textContent = c;
        if (j >= 2) td.className = 'num';
        tr.appendChild(td);
      });
      const td = document.createElement('td');
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = t('play');
      b.setAttribute('aria-label', t('playThis', { play: play.text }));
      b.addEventListener('click', () => run(async () => {
        if (state.phase !== 'move') return;
        const legal = state.plays.find((p) => p.result_id === play.result_id || p.text === play.text) || play;
        await humanPlays(legal);
      }));
      td.appendChild(b);
      tr.appendChild(td);
      body.appendChild(tr);
    });
    const depth = a.plies !== undefined ? t('hintDepth', { n: a.plies }) : '';
    $('hints').querySelector('caption').textContent = t('hintCaption', { dice: diceText(state.dice), depth });
    $('hints').hidden = false;
  }

  // ---------------------------------------------------------------- rollout
  const ROLLOUT_TRIALS = 144; // four stratified blocks of 36 first rolls; fits the server's budget

  // The position before the roll, played out (POST /rollout), for the side to move.
  async function rollout() {
    const seed = seedBase === null ? 0 : seedBase;
    const r = await api('rollout', { position: state.position, trials: ROLLOUT_TRIALS, player: 'greedy', seed });
    state.rolloutResult = { r, side: state.turn, id: state.id || '' };
    showRollout();
  }

  // The last rollout's line (written again when the language changes).
  function showRollout() {
    const { r, side, id } = state.rolloutResult;
    const p = r.probabilities;
    const pct = (x) => `${(100 * x).toFixed(1)}%`;
    const el = $('rollout-result');
    el.textContent = t('rolloutText', {
      side: sideName(side), trials: r.trials, win: pct(p.win), wg: pct(p.win_double), lg: pct(p.lose_double),
      equity: `${r.equity >= 0 ? '+' : ''}${r.equity.toFixed(3)}`, ci: r.equity_ci95.toFixed(3),
    });
    el.dataset.equity = String(r.equity);
    el.dataset.trials = String(r.trials);
    el.dataset.id = id;
    el.hidden = false;
  }

  // ---------------------------------------------------------------- text on the page
  function moveHelp() {
    return state.selected === null ? t('helpSource') : t('helpTarget', { point: pointWord(state.selected) });
  }

  function resultText(result, variant) {
    const decided = result.winner !== null && result.winner !== undefined;
    const who = !decided ? t('drawn')
      : hotseat ? t('winSide', { side: colourName(result.winner) }) : t(result.winner === HUMAN ? 'winYou' : 'winEngine');
    const pts = !decided ? '' : t(result.points === 1 ? 'points1' : 'pointsN', { n: result.points });
    const kind = result.kind ? ` (${LANG.word('kind', result.kind)})` : '';
    return `${nameOf(variant || state.variant)}: ${who}${pts}${kind}`;
  }

  function describeMove() {
    $('steps').textContent = state.moves.length
      ? t('yourSteps', { steps: state.moves.map((m) => `${pointName(m.from)}/${pointName(m.to)}`).join(' ') })
      : '';
  }

  function describe() {
    // The other side's move text is turned into the point numbers the board shows.
    let lastText = '';
    if (state.last) {
      const { player, play, dice } = state.last;
      const who = hotseat ? colourName(player) : t(player === HUMAN ? 'whoYou' : 'whoEngine');
      lastText = t('played', { who, play: viewerText(play.text, player, isParallel(), HUMAN), dice: diceText(dice) });
    }
    let text = '';
    switch (state.phase) {
      case 'opening':
        text = state.mode !== 'match' ? t('statusOpening', { game: nameOf(state.variant) })
          : t('statusMatchOpening', { n: state.match.game_number + 1, game: nameOf(state.variant) });
        break;
      case 'roll':
        text = lastText + (hotseat ? t('statusSideRoll', { side: colourName(HUMAN) }) : t('statusYourRoll'));
        break;
      case 'move': {
        const n = state.plays.length;
        const only = n === 1 ? (state.plays[0].steps.length ? t('onlyPlay', { play: state.plays[0].text }) : t('noPlay'))
          : t('nPlays', { n });
        const help = n > 1 || state.plays[0].steps.length ? moveHelp() : '';
        text = hotseat ? t('rolledSide', { side: colourName(HUMAN), dice: diceText(state.dice), only, help })
          : t('rolledYou', { dice: diceText(state.dice), only, help });
        break;
      }
      case 'engine':
        text = lastText + t('statusThinking');
        break;
      case 'answer':
        text = lastText + t('statusOffer', { value: state.offer.value });
        break;
      case 'next':
        text = lastText + t('statusNext', { result: resultText(state.finished.result, state.finished.variant), next: t('nextGame') });
        break;
      case 'over':
        if (state.cubeMatch) {
          const s = state.cubeMatch.score;
          text = lastText + t(s[0] > s[1] ? 'matchOverYou' : 'matchOverEngine', { a: s[0], b: s[1] });
        } else if (state.mode === 'match') {
          const s = state.match.score;
          text = lastText + t(state.match.winner === HUMAN ? 'matchOverYou' : 'matchOverEngine', { a: s[0], b: s[1] });
        } else {
          text = lastText + t('gameOver', { result: resultText(state.outcome, state.variant) });
        }
        break;
      default:
        text = '';
    }
    setStatus(text.trim());
    describeMove();
    describeScore();
    describeCube();
  }

  function describeScore() {
    const el = $('score');
    if (state.cubeMatch) {
      const m = state.cubeMatch;
      el.textContent = t('scoreLine', { target: m.target }) + t('scoreYou', { n: m.score[0] }) + ' – '
        + t('scoreEngine', { n: m.score[1] }) + (m.crawford ? t('crawford') : '');
      el.dataset.score = `${m.score[0]}-${m.score[1]}`;
      el.hidden = false;
      return;
    }
    if (state.mode !== 'match' || !state.match) {
      el.hidden = true;
      return;
    }
    const m = state.match;
    el.replaceChildren();
    const line = document.createElement('p');
    line.append(t('scoreLine', { target: m.target }));
    const you = document.createElement('strong');
    you.id = 'score-white';
    you.textContent = t('scoreYou', { n: m.score[0] });
    const eng = document.createElement('strong');
    eng.id = 'score-black';
    eng.textContent = t('scoreEngine', { n: m.score[1] });
    line.append(you, ' – ', eng, t('scoreGame', { n: m.game_number + 1, game: nameOf(m.variant || state.variant) }));
    el.appendChild(line);
    el.dataset.score = `${m.score[0]}-${m.score[1]}`;
    el.hidden = false;
  }

  function addLog(entry) {
    state.log.push(entry);
    renderLog();
  }

  function renderLog() {
    const ol = $('log');
    ol.replaceChildren();
    for (const e of state.log) {
      const li = document.createElement('li');
      if (e.result) {
        li.className = 'result';
        li.textContent = resultText(e.result, e.variant);
      } else if (e.note) {
        li.className = 'cube-note';
        li.textContent = t(e.note.key, e.note); // a note names its words by key, like the opening lines
      } else if (e.opening) {
        const [w, b] = hotseat ? [colourName(0), colourName(1)]
          : HUMAN === 0 ? [t('openingYou'), t('openingEngine')] : [t('openingEngine'), t('openingYou')];
        // The entry names its words by key (shown in the language of the moment).
        const text = t(e.text.key, e.text.side === undefined ? {} : { side: colourName(e.text.side) });
        li.textContent = t('openingLine', { first: w, a: e.dice[0], second: b, b: e.dice[1], text });
      } else {
        li.dataset.player = String(e.player);
        li.dataset.dice = diceText(e.dice);
        li.dataset.steps = JSON.stringify(e.steps);
        li.dataset.id = e.id || '';
        li.textContent = `${sideName(e.player)}: ${diceText(e.dice)} ${viewerText(e.text, e.player, e.parallel)}`;
        li.dataset.text = e.text; // the mover's own notation, for scripts
      }
      ol.appendChild(li);
    }
    ol.scrollTop = ol.scrollHeight;
  }

  function updateControls() {
    const p = state.phase;
    const rollBtn = $('roll');
    rollBtn.disabled = busy || !['roll', 'opening', 'next', 'engine'].includes(p);
    const labels = { opening: t('rollStart'), next: t('nextGame'), engine: busy ? t('roll') : t('engineAgain') };
    rollBtn.textContent = labels[p] || t('roll');
    $('undo').disabled = busy || !canUndo();
    $('hint').disabled = busy || p !== 'move';
    $('rollout').disabled = busy || !['roll', 'move'].includes(p);
    $('new-game').disabled = busy;
    $('save-game').hidden = state.mode !== 'game';
    $('save-game').disabled = busy || !state.start;
    $('load-game').disabled = busy;
    $('double').hidden = !state.cube;
    $('double').disabled = busy || p !== 'roll' || !canDouble(HUMAN);
    $('take').hidden = p !== 'answer';
    $('pass').hidden = p !== 'answer';
    $('take').disabled = busy;
    $('pass').disabled = busy;
    const only = $('play-only');
    const single = p === 'move' && state.plays.length === 1;
    only.hidden = !single;
    only.disabled = busy || !single;
    if (single) only.textContent = state.plays[0].steps.length ? t('playThis', { play: state.plays[0].text }) : t('pass');
    $('board').dataset.busy = busy ? 'true' : 'false';
  }

  // ---------------------------------------------------------------- set-up
  let matchKinds = [];

  async function loadVariants() {
    const v = await api('variants');
    for (const g of v.variants) variantInfo.set(g.name, g);
    matchKinds = v.match_kinds || [];
    for (const m of v.matches || []) matchTargets.set(m.kind, m.target);
    fillVariants();
    $('variant').value = 'fevga';
    showTarget();
    showRuleOptions();
  }

  // The game choices in the page's language: single games, then whole matches ("match:<kind>").
  function fillVariants() {
    const select = $('variant');
    const chosen = select.value;
    select.replaceChildren();
    const single = document.createElement('optgroup');
    single.label = t('oneGame');
    for (const name of variantInfo.keys()) single.appendChild(new Option(nameOf(name), name));
    select.appendChild(single);
    if (matchKinds.length) {
      const matches = document.createElement('optgroup');
      matches.label = t('aMatch');
      for (const k of matchKinds) matches.appendChild(new Option(t('matchOf', { game: nameOf(k) }), `match:${k}`));
      // The games with a cube also as a match played here with the cube (single games, the score kept).
      for (const [name, g] of variantInfo) {
        if (g.cube) matches.appendChild(new Option(t('cubeMatchOf', { game: nameOf(name) }), `cubematch:${name}`));
      }
      select.appendChild(matches);
    }
    if (chosen) select.value = chosen;
  }

  // The rule options of the chosen single game (GET /api/v1/variants), each a select set to its
  // default; a match plays its games' defaults.

  function showRuleOptions() {
    const box = $('rule-options');
    // Drawn again in another language: the same game keeps the choices made.
    const kept = new Map(box.dataset.variant !== $('variant').value ? []
      : [...box.querySelectorAll('select[data-option]')].map((sel) => [sel.dataset.option, sel.value]));
    box.replaceChildren();
    box.dataset.variant = $('variant').value;
    const info = variantInfo.get($('variant').value);
    for (const o of (info ? info.options : [])) {
      const label = document.createElement('label');
      label.textContent = LANG.has(`opt_${o.name}`) ? t(`opt_${o.name}`) : o.name.replace(/_/g, ' ');
      const help = LANG.own(`help_${o.help}`) || o.help; // the core's description, translated where i18n.js has it
      label.title = help;
      const select = document.createElement('select');
      select.dataset.option = o.name;
      select.dataset.testid = `option-${o.name}`;
      select.title = help;
      o.choices.forEach((c, i) => {
        const opt = new Option(String(c), String(i));
        opt.selected = kept.has(o.name) ? kept.get(o.name) === String(i) : c === o.default;
        select.appendChild(opt);
      });
      label.appendChild(select);
      box.appendChild(label);
    }
    box.hidden = !box.childElementCount;
  }

  // The options chosen for `variant` that differ from the defaults, with the choices' own types.
  function ruleOptions(variant) {
    const info = variantInfo.get(variant);
    const out = {};
    if (!info || $('variant').value !== variant) return out;
    for (const o of info.options) {
      const select = $('rule-options').querySelector(`select[data-option="${o.name}"]`);
      const chosen = select ? o.choices[Number(select.value)] : o.default;
      if (chosen !== o.default) out[o.name] = chosen;
    }
    return out;
  }

  // A match's target field, set to the kind's usual length (GET /variants) whenever the choice
  // changes; the person may change it.
  function showTarget() {
    const [how, name] = $('variant').value.split(':');
    const isMatch = how === 'match' || how === 'cubematch';
    const target = how === 'match' ? matchTargets.get(name) : facts(name).match_target;
    if (isMatch && target !== undefined) $('target').value = String(target);
    $('target').hidden = !isMatch;
    $('target-label').hidden = !isMatch;
  }

  function readSeed() {
    const raw = new URLSearchParams(window.location.search).get('seed');
    if (raw === null) return;
    if (/^[0-9]{1,9}$/.test(raw) && Number(raw) <= MAX_SEED_BASE) {
      seedBase = Number(raw);
    } else {
      showError(t('errSeed', { max: MAX_SEED_BASE, raw }));
    }
  }

  function init() {
    LANG.init($('lang'), languageChanged);
    readSeed();
    $('setup').addEventListener('submit', (e) => { e.preventDefault(); run(newGame); });
    $('variant').addEventListener('change', () => { showTarget(); showRuleOptions(); });
    $('strength').addEventListener('change', () => { state.plies = Number($('strength').value); });
    $('roll').addEventListener('click', () => run(rollButton));
    $('undo').addEventListener('click', () => run(undo));
    $('hint').addEventListener('click', () => run(hint));
    $('rollout').addEventListener('click', () => run(rollout));
    $('double').addEventListener('click', () => run(humanDoubles));
    $('take').addEventListener('click', () => run(() => answerDouble(true)));
    $('pass').addEventListener('click', () => run(() => answerDouble(false)));
    $('save').addEventListener('click', () => run(saveMatch));
    $('save-game').addEventListener('click', () => run(saveGame));
    $('load-game').addEventListener('click', () => $('load-file').click());
    $('load-file').addEventListener('change', () => {
      const file = $('load-file').files[0];
      if (file) run(() => loadGame(file));
      $('load-file').value = '';
    });
    $('play-only').addEventListener('click', () => run(async () => {
      if (state.phase === 'move' && state.plays.length === 1) await humanPlays(state.plays[0]);
    }));
    $('board').addEventListener('click', onBoardClick);
    $('board').addEventListener('keydown', onBoardKey);
    const seedError = $('error').hidden ? null : $('error').textContent; // run() clears the box
    run(async () => {
      await loadVariants();
      await newGame();
      if (seedError) showError(seedError);
    });
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
})();
