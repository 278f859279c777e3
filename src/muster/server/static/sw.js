// muster's service worker: shows a Web Push notice (a turn, a message, the end of a game) while no muster
// tab is open, and opens the notice's link when it is clicked.
self.addEventListener("push", (event) => {
  let data = { title: "muster", body: "", url: "/" };
  try { data = { ...data, ...event.data.json() }; } catch { /* an empty or foreign message: the defaults */ }
  event.waitUntil(self.registration.showNotification(data.title, {
    body: data.body, data: { url: data.url }, icon: "/static/favicon.svg", tag: data.url,
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  if (url.origin !== self.location.origin) return; // only our own pages
  event.waitUntil(self.clients.openWindow(url.href));
});
