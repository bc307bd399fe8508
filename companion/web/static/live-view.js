// The camera view: MJPEG in an <img>, or stills from /api/snapshot.jpg.
// Some browsers show only the first frame of an MJPEG stream. We compare a tiny thumbnail
// of the <img> every few seconds; if it stops changing while the camera reports frames,
// we switch to polling stills. The button switches by hand.

const CHECK_EVERY_MS = 2500;
const STALL_CHECKS = 3;
const STILL_EVERY_MS = 400;

export class LiveView {
  constructor(img, label, button, cameraFps) {
    this.img = img;
    this.label = label;
    this.button = button;
    this.cameraFps = cameraFps; // () => frames per second the server reports
    this.mode = null;
    this.stalls = 0;
    this.lastSig = null;
    this.canvas = document.createElement("canvas");
    this.canvas.width = 32;
    this.canvas.height = 24;
    button.addEventListener("click", () => this.use(this.mode === "live" ? "stills" : "live"));
    const forced = new URL(location.href).searchParams.get("view");
    this.use(forced === "stills" ? "stills" : "live");
    setInterval(() => this.check(), CHECK_EVERY_MS);
  }

  use(mode) {
    this.mode = mode;
    this.stalls = 0;
    clearTimeout(this.timer);
    this.label.textContent = mode === "live" ? "live (MJPEG)" : "stills";
    this.button.textContent = mode === "live" ? "use stills" : "use live stream";
    if (mode === "live") {
      this.img.src = `/api/stream.mjpg?t=${Date.now()}`;
    } else {
      this.nextStill();
    }
  }

  nextStill() {
    if (this.mode !== "stills") return;
    const still = new Image();
    const again = (ms) => { this.timer = setTimeout(() => this.nextStill(), ms); };
    still.onload = () => { this.img.src = still.src; again(STILL_EVERY_MS); };
    still.onerror = () => again(2000);
    still.src = `/api/snapshot.jpg?t=${Date.now()}`;
  }

  signature() {
    if (!this.img.naturalWidth) return null;
    const ctx = this.canvas.getContext("2d", { willReadFrequently: true });
    try {
      ctx.drawImage(this.img, 0, 0, this.canvas.width, this.canvas.height);
      const data = ctx.getImageData(0, 0, this.canvas.width, this.canvas.height).data;
      let sum = 0;
      for (let i = 0; i < data.length; i += 1) sum = (sum * 31 + data[i]) >>> 0;
      return sum;
    } catch {
      return null;
    }
  }

  check() {
    if (this.mode !== "live") return;
    const sig = this.signature();
    const moving = this.cameraFps() > 0;
    if (sig !== null && sig === this.lastSig && moving) {
      this.stalls += 1;
      if (this.stalls >= STALL_CHECKS) this.use("stills");
    } else {
      this.stalls = 0;
    }
    this.lastSig = sig;
  }
}
