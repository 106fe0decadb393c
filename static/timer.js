// The turn timer: runs entirely in the browser once the page is loaded (no request per tick).
// The remaining time is always computed from a wall-clock deadline (Date.now()), never by
// counting ticks, so a throttled background tab or a locked screen cannot make it run slow:
// when the page wakes up it shows the true time left, and raises the alarm if it has passed.
// Markup: templates/turns/timer.html (data-players, data-seconds, data-text-*: the words).
// Sound (the alarm and a short beep each second of the last ten) can be switched off; the
// choice is remembered. Each player's time used this game is added up from the same clock.
(function () {
  "use strict";

  const root = document.getElementById("timer");
  if (!root) return;

  const TICK_MS = 200;
  const URGENT_MS = 10 * 1000;
  // Every word the timer writes comes from the page, in its language (data-text-*);
  // "{player}" stands for a name.
  const text = root.dataset;
  const HINTS = {
    ready: text.textHintReady,
    running: text.textHintRunning,
    paused: text.textHintPaused,
    expired: text.textHintExpired,
  };
  function withPlayer(template, name) {
    return template.replace("{player}", name);
  }

  const players = JSON.parse(root.dataset.players);
  const turnMs = Number(root.dataset.seconds) * 1000;
  const face = document.getElementById("timer-face");
  const playerLabel = document.getElementById("timer-player");
  const digits = document.getElementById("timer-digits");
  const hint = document.getElementById("timer-hint");
  const nextLabel = document.getElementById("timer-next");
  const alarm = document.getElementById("timer-alert");
  const pauseButton = document.getElementById("timer-pause");
  const restartButton = document.getElementById("timer-restart");
  const undoButton = document.getElementById("timer-undo");
  const soundButton = document.getElementById("timer-sound");
  const usedList = document.getElementById("timer-used");
  const SOUND_KEY = "companion.timerSound";

  let state = "ready";
  let current = 0;
  let deadline = 0; // Date.now() at which the running turn ends
  let remainingWhenStopped = turnMs; // time left while ready or paused
  let beforePass = null; // the turn a pass ended, so that a mistaken tap can be undone
  let audio = null;
  let wakeLock = null;
  let soundOn = readSoundChoice();
  let lastCountdownBeep = null; // the second (10..1) last beeped, once per second
  const usedMs = players.map(function () { return 0; }); // finished stretches of each turn
  let stretchStart = null; // Date.now() when the running stretch of the current turn began

  function readSoundChoice() {
    try { return localStorage.getItem(SOUND_KEY) !== "off"; } catch (e) { return true; }
  }

  // Time used: a turn's running stretches, added to its player when the stretch ends.
  function beginStretch() {
    stretchStart = Date.now();
  }
  function endStretch(at) {
    if (stretchStart === null) return;
    usedMs[current] += Math.max(0, Math.min(at || Date.now(), deadline) - stretchStart);
    stretchStart = null;
  }
  function usedBy(index) {
    const running = index === current && stretchStart !== null
      ? Math.max(0, Math.min(Date.now(), deadline) - stretchStart) : 0;
    return usedMs[index] + running;
  }
  function formatUsed(ms) {
    const seconds = Math.round(ms / 1000);
    return Math.floor(seconds / 60) + ":" + String(seconds % 60).padStart(2, "0");
  }
  function renderUsed() {
    if (!usedList) return;
    if (usedList.children.length !== players.length) {
      usedList.textContent = "";
      players.forEach(function (name) {
        const item = document.createElement("li");
        const who = document.createElement("span");
        who.className = "timer-used-name";
        who.textContent = name;
        const time = document.createElement("span");
        time.className = "timer-used-time";
        item.append(who, " ", time);
        usedList.append(item);
      });
    }
    players.forEach(function (_name, index) {
      const item = usedList.children[index];
      const shown = formatUsed(usedBy(index));
      const time = item.querySelector(".timer-used-time");
      if (time.textContent !== shown) time.textContent = shown;
      item.classList.toggle("current", index === current);
    });
  }

  function remainingMs() {
    return state === "running" ? Math.max(0, deadline - Date.now()) : remainingWhenStopped;
  }

  function formatTime(ms) {
    const seconds = Math.ceil(ms / 1000);
    return Math.floor(seconds / 60) + ":" + String(seconds % 60).padStart(2, "0");
  }

  function nextPlayer() {
    return players[(current + 1) % players.length];
  }

  function render() {
    const ms = remainingMs();
    const shown = formatTime(ms);
    if (digits.textContent !== shown) digits.textContent = shown;
    root.dataset.state = state;
    document.body.classList.toggle("timer-expired", state === "expired");
    root.toggleAttribute("data-urgent", state === "running" && ms <= URGENT_MS);
    playerLabel.textContent = players[current];
    nextLabel.textContent = players.length > 1 ? withPlayer(text.textNext, nextPlayer()) : "";
    hint.textContent = HINTS[state];
    pauseButton.textContent = state === "paused" ? text.textResume : text.textPause;
    pauseButton.disabled = state !== "running" && state !== "paused";
    restartButton.disabled = state === "ready";
    undoButton.disabled = beforePass === null;
    document.title = (state === "ready" ? "" : shown + " · ") + players[current] + " · " +
      text.textTitle;
    if (soundButton) {
      soundButton.setAttribute("aria-pressed", soundOn ? "true" : "false");
      soundButton.textContent = soundOn ? text.textSoundOn : text.textSoundOff;
    }
    renderUsed();
  }

  // A short beep as each of the last ten seconds begins (the alarm itself sounds at zero).
  function countdownBeep() {
    if (state !== "running") return;
    const ms = remainingMs();
    const second = Math.ceil(ms / 1000);
    if (ms <= 0 || ms > URGENT_MS || second === lastCountdownBeep) return;
    lastCountdownBeep = second;
    tone(second <= 3 ? 660 : 520, 0, 0.09, 0.2);
  }

  function tick() {
    if (state === "running" && Date.now() >= deadline) expire();
    countdownBeep();
    render();
  }

  function startTurn() {
    if (state === "running") endStretch();
    state = "running";
    deadline = Date.now() + turnMs;
    lastCountdownBeep = null;
    beginStretch();
    alarm.hidden = true;
    alarm.textContent = "";
    holdScreenAwake();
    render();
  }

  function passTurn() {
    unlockAudio();
    if (state !== "ready") {
      if (state === "running") endStretch();
      beforePass = { player: current, state: state, remaining: remainingMs(),
                     alarm: alarm.textContent, used: usedMs.slice() };
      current = (current + 1) % players.length;
    }
    startTurn();
  }

  // Back to the player whose turn a pass ended, with the time they had left (no new alarm).
  function undoPass() {
    if (beforePass === null) return;
    current = beforePass.player;
    state = beforePass.state;
    remainingWhenStopped = beforePass.remaining;
    deadline = Date.now() + beforePass.remaining;
    alarm.textContent = beforePass.alarm;
    alarm.hidden = !beforePass.alarm;
    beforePass.used.forEach(function (ms, index) { usedMs[index] = ms; });
    stretchStart = state === "running" ? Date.now() : null;
    beforePass = null;
    lastCountdownBeep = null;
    render();
  }

  function togglePause() {
    if (state === "running") {
      remainingWhenStopped = Math.max(0, deadline - Date.now());
      endStretch();
      state = "paused";
    } else if (state === "paused") {
      deadline = Date.now() + remainingWhenStopped;
      state = "running";
      beginStretch();
    }
    render();
  }

  function expire() {
    endStretch(deadline);
    state = "expired";
    remainingWhenStopped = 0;
    alarm.textContent = withPlayer(text.textAlarm, players[current]);
    alarm.hidden = false;
    soundAlarm();
    if (navigator.vibrate) navigator.vibrate([400, 150, 400, 150, 400]);
  }

  // Browsers only let a page make sound after a tap or key press: the first one unlocks it.
  function unlockAudio() {
    const AudioContextClass = window.AudioContext || window.webkitAudioContext;
    if (!AudioContextClass) return;
    if (!audio) audio = new AudioContextClass();
    if (audio.state === "suspended") audio.resume();
  }

  function tone(frequency, delay, length, volume) {
    if (!audio || !soundOn) return;
    if (audio.state === "suspended") audio.resume();
    const at = audio.currentTime + 0.05 + delay;
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    oscillator.type = "square";
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(volume, at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + length - 0.02);
    oscillator.connect(gain).connect(audio.destination);
    oscillator.start(at);
    oscillator.stop(at + length);
  }

  function soundAlarm() {
    for (let beep = 0; beep < 3; beep += 1) tone(880, beep * 0.35, 0.27, 0.4);
  }

  // Keep the screen on while the timer is in use (Screen Wake Lock API, where available).
  // The browser drops the lock when the page is hidden; it is asked for again on return.
  function holdScreenAwake() {
    if (!("wakeLock" in navigator) || wakeLock || document.visibilityState !== "visible") return;
    navigator.wakeLock.request("screen").then(function (lock) {
      wakeLock = lock;
      lock.addEventListener("release", function () { wakeLock = null; });
    }).catch(function () { wakeLock = null; });
  }

  function isTyping(target) {
    return target && target.closest && target.closest("input, textarea, select, a");
  }

  face.addEventListener("click", passTurn);
  pauseButton.addEventListener("click", togglePause);
  restartButton.addEventListener("click", function () { unlockAudio(); startTurn(); });
  undoButton.addEventListener("click", undoPass);
  if (soundButton) {
    soundButton.hidden = false;
    soundButton.addEventListener("click", function () {
      soundOn = !soundOn;
      try { localStorage.setItem(SOUND_KEY, soundOn ? "on" : "off"); } catch (e) { /* private mode */ }
      if (soundOn) unlockAudio();
      render();
    });
  }

  // Full screen: only the timer, as big as the device allows, for the far side of the table.
  const fullscreenButton = document.getElementById("timer-fullscreen");
  if (fullscreenButton && root.requestFullscreen) {
    fullscreenButton.hidden = false;
    fullscreenButton.addEventListener("click", function () {
      if (document.fullscreenElement) document.exitFullscreen();
      else root.requestFullscreen().catch(function () { fullscreenButton.hidden = true; });
    });
    document.addEventListener("fullscreenchange", function () {
      fullscreenButton.textContent = document.fullscreenElement ? text.textLeaveFullScreen
        : text.textFullScreen;
    });
  }

  document.addEventListener("keydown", function (event) {
    if (isTyping(event.target)) return;
    if (event.key === " " || (event.key === "Enter" && event.target === face)) {
      event.preventDefault(); // no page scroll, no click on a focused button
      if (!event.repeat) passTurn();
    } else if (event.key === "p" || event.key === "P") {
      togglePause();
    }
  });
  document.addEventListener("keyup", function (event) {
    if (event.key === " " && !isTyping(event.target)) event.preventDefault();
  });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && state !== "ready") holdScreenAwake();
    tick();
  });

  window.setInterval(tick, TICK_MS);
  render();
})();
