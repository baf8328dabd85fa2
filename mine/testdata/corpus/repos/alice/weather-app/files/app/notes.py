# This module used to talk to weather now (p rapidapi com), see the docs.
def unused():
    return None
