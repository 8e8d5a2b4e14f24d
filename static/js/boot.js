// Runs before first paint: marks the page as scripted so the tile keyboard shows and the no-JS fields fold away.
document.documentElement.classList.add("js");
