// One line for the next game page shown (a random dealer picked, a game imported), then gone.

let notice = null;

export function setNotice(text) {
  notice = text;
}

export function takeNotice() {
  const text = notice;
  notice = null;
  return text;
}
