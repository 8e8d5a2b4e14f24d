// The verdict as a picture for the group chat (issue 32). Loaded by boot.js at the first tap on a picture button
// ([data-picture]: the result card's "Share as picture", a table's "Share the evening as a picture"), never before.
//
// The picture is one SVG (jinja2/picture.svg), drawn by the server's Python: asked of the server
// (/picture/<version>/<lang>.svg?<share query>, or the table's own URL), or, with the offline pack ready, drawn in
// the phone by the same Python (offline.js, the pack's worker). Here it becomes a PNG: an <img> of it drawn on a
// canvas (the browser's own fonts), `canvas.toBlob`. The phone's share sheet gets the file where it takes files
// (`navigator.canShare({files})`); elsewhere it is downloaded. The picture stays shown under the button with a
// second "share" (for a share sheet that wants a fresh tap) and "Save the picture".
(function () {
  "use strict";

  const root = document.documentElement;
  const boot = document.querySelector("script[data-picture-src]");
  const base = boot ? boot.dataset.pictureBase : ""; // the calculator's picture URL before "<lang>.svg?…"
  const lang = () => ((root.lang || "").startsWith("en") ? "en" : "zh");

  async function fetched(url) {
    const response = await fetch(url, { credentials: "same-origin" });
    if (!response.ok) throw new Error(url + ": " + response.status);
    return response.text();
  }

  // The picture's SVG: a table's from its URL; a hand's drawn in the phone when the offline pack is ready there,
  // else asked of the server.
  async function svgOf(button) {
    if (button.dataset.pictureUrl) return fetched(button.dataset.pictureUrl);
    const query = button.dataset.pictureQuery;
    if (window.offlinePack && root.hasAttribute("data-offline-ready")) {
      try {
        const svg = await window.offlinePack.picture(query, lang(), location.origin);
        if (svg) return svg;
      } catch (error) {
        // the server draws it
      }
    }
    return fetched(base + lang() + ".svg?" + query);
  }

  // The SVG drawn on a canvas at its own size (1080 px wide), as a PNG.
  function pngOf(svg) {
    return new Promise((resolve, reject) => {
      const url = URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" }));
      const image = new Image();
      image.onload = () => {
        const canvas = document.createElement("canvas");
        canvas.width = image.naturalWidth;
        canvas.height = image.naturalHeight;
        canvas.getContext("2d").drawImage(image, 0, 0);
        URL.revokeObjectURL(url);
        canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("no PNG"))), "image/png");
      };
      image.onerror = () => {
        URL.revokeObjectURL(url);
        reject(new Error("the SVG could not be drawn"));
      };
      image.src = url;
    });
  }

  function titleOf(svg) {
    const title = new DOMParser().parseFromString(svg, "image/svg+xml").querySelector("title");
    return title ? title.textContent : "";
  }

  function element(tag, attributes, text) {
    const el = document.createElement(tag);
    Object.entries(attributes || {}).forEach(([k, v]) => el.setAttribute(k, v));
    if (text) el.textContent = text;
    return el;
  }

  // The panel under the button: what went wrong, if anything, then the picture with its two ways out. Styled with
  // the page's own classes (and the picture's width set here): nothing of it weighs on the page's first load.
  function panelOf(button) {
    const id = button.id + "-panel";
    let panel = document.getElementById(id);
    if (!panel) {
      panel = element("div", { class: "picture-panel", id, "data-picture-panel": "" });
      panel.append(element("p", { class: "hint", role: "status", "data-picture-status": "" }));
      button.closest("[data-picture-home]").after(panel);
    }
    return panel;
  }

  const say = (panel, text) => { panel.querySelector("[data-picture-status]").textContent = text; };

  async function offer(file, title) {
    try {
      await navigator.share({ files: [file], title });
    } catch (error) {
      // cancelled, or the sheet wants a fresh tap: the panel's button shares it again
    }
  }

  // The picture under the button, with "share" (where the phone shares files: the button's own words) and "save".
  function show(panel, button, blob, title) {
    const name = button.dataset.pictureUrl ? "mahjong-table.png" : "mahjong.png";
    const file = new File([blob], name, { type: "image/png" });
    const url = URL.createObjectURL(blob);
    panel.querySelectorAll("img, .share-row").forEach((el) => el.remove());
    const actions = element("p", { class: "share-row" });
    const sharable = !!(navigator.canShare && navigator.canShare({ files: [file] }));
    if (sharable) {
      const again = element("button", { type: "button", class: "btn-small", "data-panel-share": "" }, button.textContent);
      again.addEventListener("click", () => offer(file, title));
      actions.append(again);
    }
    const save = element("a", { href: url, download: name, class: "btn-small", "data-panel-save": "" }, button.dataset.pictureSave);
    Object.assign(save.style, { display: "inline-flex", alignItems: "center", textDecoration: "none" });
    actions.append(save);
    const image = element("img", { src: url, alt: title });
    Object.assign(image.style, { display: "block", width: "100%", height: "auto", marginTop: ".5rem" });
    panel.append(actions, image);
    return { file, sharable, save };
  }

  async function share(button) {
    if (button.getAttribute("aria-busy") === "true") return;
    button.setAttribute("aria-busy", "true");
    const panel = panelOf(button);
    say(panel, "");
    try {
      const svg = await svgOf(button);
      const blob = await pngOf(svg);
      const title = titleOf(svg);
      const shown = show(panel, button, blob, title);
      root.dataset.pictureDrawn = String(blob.size); // for a look from the tests
      if (shown.sharable) await offer(shown.file, title);
      else shown.save.click(); // no share sheet for files here: downloaded
    } catch (error) {
      console.warn("picture: " + (error && error.message ? error.message : error));
      say(panel, button.dataset.pictureFailed);
    } finally {
      button.removeAttribute("aria-busy");
    }
  }

  window.mahjongPicture = { share };
})();
