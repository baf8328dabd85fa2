import click

from paykit.rapid import RapidChecks


@click.group()
def cli():
    """paykit: onboarding helpers."""


@cli.command()
@click.argument("iban")
def iban(iban):
    ok = RapidChecks().validate_iban(iban)
    click.echo(click.style("valid" if ok else "INVALID", fg="green" if ok else "red"))


@cli.command()
@click.argument("amount", type=float)
@click.argument("src")
@click.argument("dst")
def fx(amount, src, dst):
    click.echo(RapidChecks().convert(amount, src.upper(), dst.upper()))


if __name__ == "__main__":
    cli()
