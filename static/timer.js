// The turn timer: runs entirely in the browser once the page is loaded (no request per tick).
// The remaining time is always computed from a wall-clock deadline (Date.now()), never by
// counting ticks, so a throttled background tab or a locked screen cannot make it run slow:
// when the page wakes up it shows the true time left, and raises the alarm if it has passed.
// Markup: templates/turns/timer.html (data-players, data-seconds, data-penalty).
(function () {
  "use strict";

  const root = document.getElementById("timer");
  if (!root) return;

  const TICK_MS = 200;
  const URGENT_MS = 10 * 1000;
  const HINTS = {
    ready: "Tap here or press the space bar to start",
    running: "Tap or space bar: pass the turn",
    paused: "Paused · Resume, or tap to pass the turn",
    expired: "Tap or space bar: next player",
  };

  const players = JSON.parse(root.dataset.players);
  const turnMs = Number(root.dataset.seconds) * 1000;
  const penalty = root.dataset.penalty;
  const face = document.getElementById("timer-face");
  const playerLabel = document.getElementById("timer-player");
  const digits = document.getElementById("timer-digits");
  const hint = document.getElementById("timer-hint");
  const nextLabel = document.getElementById("timer-next");
  const alarm = document.getElementById("timer-alert");
  const pauseButton = document.getElementById("timer-pause");
  const restartButton = document.getElementById("timer-restart");
  const undoButton = document.getElementById("timer-undo");

  let state = "ready";
  let current = 0;
  let deadline = 0; // Date.now() at which the running turn ends
  let remainingWhenStopped = turnMs; // time left while ready or paused
  let beforePass = null; // the turn a pass ended, so that a mistaken tap can be undone
  let audio = null;
  let wakeLock = null;

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
    nextLabel.textContent = players.length > 1 ? "Next: " + nextPlayer() : "";
    hint.textContent = HINTS[state];
    pauseButton.textContent = state === "paused" ? "Resume" : "Pause";
    pauseButton.disabled = state !== "running" && state !== "paused";
    restartButton.disabled = state === "ready";
    undoButton.disabled = beforePass === null;
    document.title = (state === "ready" ? "" : shown + " · ") + players[current] + " · Turn timer";
  }

  function tick() {
    if (state === "running" && Date.now() >= deadline) expire();
    render();
  }

  function startTurn() {
    state = "running";
    deadline = Date.now() + turnMs;
    alarm.hidden = true;
    alarm.textContent = "";
    holdScreenAwake();
    render();
  }

  function passTurn() {
    unlockAudio();
    if (state !== "ready") {
      beforePass = { player: current, state: state, remaining: remainingMs(),
                     alarm: alarm.textContent };
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
    beforePass = null;
    render();
  }

  function togglePause() {
    if (state === "running") {
      remainingWhenStopped = Math.max(0, deadline - Date.now());
      state = "paused";
    } else if (state === "paused") {
      deadline = Date.now() + remainingWhenStopped;
      state = "running";
    }
    render();
  }

  function expire() {
    state = "expired";
    remainingWhenStopped = 0;
    alarm.textContent = "Time! " + players[current] + " " + penalty;
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

  function soundAlarm() {
    if (!audio) return;
    if (audio.state === "suspended") audio.resume();
    const start = audio.currentTime + 0.05;
    for (let beep = 0; beep < 3; beep += 1) {
      const oscillator = audio.createOscillator();
      const gain = audio.createGain();
      const at = start + beep * 0.35;
      oscillator.type = "square";
      oscillator.frequency.value = 880;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.4, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.25);
      oscillator.connect(gain).connect(audio.destination);
      oscillator.start(at);
      oscillator.stop(at + 0.27);
    }
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

  // Full screen: only the timer, as big as the device allows, for the far side of the table.
  const fullscreenButton = document.getElementById("timer-fullscreen");
  if (fullscreenButton && root.requestFullscreen) {
    fullscreenButton.hidden = false;
    fullscreenButton.addEventListener("click", function () {
      if (document.fullscreenElement) document.exitFullscreen();
      else root.requestFullscreen().catch(function () { fullscreenButton.hidden = true; });
    });
    document.addEventListener("fullscreenchange", function () {
      fullscreenButton.textContent = document.fullscreenElement ? "Leave full screen" : "Full screen";
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
