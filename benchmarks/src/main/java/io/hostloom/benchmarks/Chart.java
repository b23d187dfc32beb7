package io.hostloom.benchmarks;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;

/** Grouped horizontal bar charts drawn with Java2D into one PNG; no network, no native tools. */
public final class Chart {
  private static final Color[] SERIES = {
    new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c), new Color(0x9467bd)
  };
  private static final int WIDTH = 1600;
  private static final int PANEL_HEIGHT = 470;

  private Chart() {}

  /**
   * One panel.
   *
   * @param title panel title
   * @param unit value unit shown on labels
   * @param categories one group of bars each (e.g. a library)
   * @param series the bars of a group (e.g. p50, p99)
   * @param values per category, one value per series; NaN draws no bar
   * @param log whether the value axis is logarithmic
   */
  public record Panel(
      String title,
      String unit,
      List<String> categories,
      List<String> series,
      List<double[]> values,
      boolean log) {}

  public static void write(String heading, List<Panel> panels, Path out) throws IOException {
    System.setProperty("java.awt.headless", "true");
    int columns = 2;
    int rows = (panels.size() + columns - 1) / columns;
    int height = 60 + rows * PANEL_HEIGHT;
    BufferedImage img = new BufferedImage(WIDTH, height, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = img.createGraphics();
    try {
      g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
      g.setRenderingHint(
          RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, WIDTH, height);
      g.setColor(Color.BLACK);
      g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 22));
      g.drawString(heading, 20, 38);
      int pw = WIDTH / columns;
      for (int i = 0; i < panels.size(); i++) {
        int x = (i % columns) * pw;
        int y = 60 + (i / columns) * PANEL_HEIGHT;
        draw(g, panels.get(i), x + 10, y, pw - 20, PANEL_HEIGHT - 20);
      }
    } finally {
      g.dispose();
    }
    Files.createDirectories(out.toAbsolutePath().getParent());
    ImageIO.write(img, "png", out.toFile());
  }

  private static void draw(Graphics2D g, Panel p, int x, int y, int w, int h) {
    g.setColor(new Color(0xf7f7f7));
    g.fillRect(x, y, w, h);
    g.setColor(Color.BLACK);
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
    g.drawString(p.title(), x + 10, y + 24);
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
    FontMetrics fm = g.getFontMetrics();
    int labelWidth = 0;
    for (String c : p.categories()) {
      labelWidth = Math.max(labelWidth, fm.stringWidth(c));
    }
    int left = x + 20 + labelWidth;
    int right = x + w - 110;
    int top = y + 60;
    int bottom = y + h - 30;
    // legend
    int lx = x + 10;
    for (int s = 0; s < p.series().size(); s++) {
      g.setColor(SERIES[s % SERIES.length]);
      g.fillRect(lx, y + 34, 12, 12);
      g.setColor(Color.BLACK);
      g.drawString(p.series().get(s), lx + 16, y + 45);
      lx += 30 + fm.stringWidth(p.series().get(s));
    }
    double max = 0;
    double min = Double.MAX_VALUE;
    for (double[] row : p.values()) {
      for (double v : row) {
        if (!Double.isNaN(v) && v > 0) {
          max = Math.max(max, v);
          min = Math.min(min, v);
        }
      }
    }
    if (max == 0) {
      g.drawString("not measured", left, top + 20);
      return;
    }
    double lo = p.log() ? Math.pow(10, Math.floor(Math.log10(min))) : 0;
    double step = niceStep(max / 4);
    double hi = p.log() ? Math.pow(10, Math.ceil(Math.log10(max))) : step * Math.ceil(max / step);
    // grid
    g.setColor(new Color(0xdddddd));
    if (p.log()) {
      for (double t = lo; t <= hi * 1.0001; t *= 10) {
        int gx = scale(t, lo, hi, left, right, true);
        g.drawLine(gx, top - 5, gx, bottom);
        g.setColor(Color.DARK_GRAY);
        g.drawString(number(t), gx - fm.stringWidth(number(t)) / 2, bottom + 16);
        g.setColor(new Color(0xdddddd));
      }
    } else {
      for (double t = 0; t <= hi * 1.0001; t += step) {
        int gx = scale(t, lo, hi, left, right, false);
        g.drawLine(gx, top - 5, gx, bottom);
        g.setColor(Color.DARK_GRAY);
        g.drawString(number(t), gx - fm.stringWidth(number(t)) / 2, bottom + 16);
        g.setColor(new Color(0xdddddd));
      }
    }
    int groups = p.categories().size();
    int series = p.series().size();
    double groupHeight = (bottom - top) / (double) groups;
    double barHeight = Math.min(22, (groupHeight - 8) / series);
    for (int c = 0; c < groups; c++) {
      int gy = (int) (top + c * groupHeight);
      g.setColor(Color.BLACK);
      String label = p.categories().get(c);
      g.drawString(
          label,
          left - 8 - fm.stringWidth(label),
          (int) (gy + (series * barHeight) / 2 + fm.getAscent() / 2.0));
      for (int s = 0; s < series; s++) {
        double v = p.values().get(c)[s];
        int by = (int) (gy + s * barHeight);
        if (Double.isNaN(v) || v <= 0) {
          g.setColor(Color.GRAY);
          g.drawString("n/a", left + 4, by + (int) barHeight - 4);
          continue;
        }
        int bx = scale(v, lo, hi, left, right, p.log());
        g.setColor(SERIES[s % SERIES.length]);
        g.fillRect(left, by + 1, Math.max(1, bx - left), (int) barHeight - 2);
        g.setColor(Color.BLACK);
        g.drawString(number(v) + " " + p.unit(), bx + 4, by + (int) barHeight - 5);
      }
    }
    g.setColor(Color.GRAY);
    g.setStroke(new BasicStroke(1));
    g.drawLine(left, top - 5, left, bottom);
  }

  private static int scale(double v, double lo, double hi, int left, int right, boolean log) {
    double f =
        log
            ? (Math.log10(Math.max(v, lo)) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo))
            : (v - lo) / (hi - lo);
    return (int) Math.round(left + f * (right - left));
  }

  /** 1, 2 or 5 times a power of ten, at least {@code raw}. */
  private static double niceStep(double raw) {
    double p = Math.pow(10, Math.floor(Math.log10(raw)));
    for (double m : new double[] {1, 2, 5, 10}) {
      if (m * p >= raw) {
        return m * p;
      }
    }
    return 10 * p;
  }

  static String number(double v) {
    if (v >= 100_000) {
      return String.format(Locale.ROOT, "%.0fk", v / 1000);
    }
    if (v >= 100) {
      return String.format(Locale.ROOT, "%.0f", v);
    }
    if (v >= 10) {
      return String.format(Locale.ROOT, "%.1f", v);
    }
    return String.format(Locale.ROOT, "%.2f", v);
  }
}
