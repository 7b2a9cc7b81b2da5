// The panel's copy buttons (a recharge's PIX copy-and-paste code, a boleto's linha digitável):
// <button class="copy-button" data-copy="ID" data-copied="Copied" data-selected="…"> copies the
// text of the element with that id. The clipboard API first; where the browser refuses it, the
// text is selected and copied the old way, or left selected for the reader to copy.
"use strict";
(function () {
  function select(element) {
    const range = document.createRange();
    range.selectNodeContents(element);
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  function copySelected(element) {
    select(element);
    try {
      return document.execCommand("copy");
    } catch (error) {
      return false;
    }
  }

  function say(button, copied) {
    button.textContent = copied ? button.dataset.copied : button.dataset.selected;
    button.classList.toggle("copied", copied);
  }

  document.addEventListener("click", function (event) {
    const button = event.target.closest(".copy-button");
    if (!button) {
      return;
    }
    const source = document.getElementById(button.dataset.copy);
    if (!source) {
      return;
    }
    const text = source.textContent.trim();
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(
        function () { say(button, true); },
        function () { say(button, copySelected(source)); }
      );
    } else {
      say(button, copySelected(source));
    }
  });
})();
