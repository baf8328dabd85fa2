import matplotlib.pyplot as plt


def style():
    plt.rcParams.update({"figure.figsize": (12, 4), "axes.grid": True, "grid.alpha": 0.3})


def annotate_max(ax, series):
    idx = series.idxmax()
    ax.annotate(f"max {series.max():,.0f}", xy=(idx, series.max()), xytext=(10, 10),
                textcoords="offset points", arrowprops={"arrowstyle": "->"})
