# Type stubs for the parts of Flask-WTF scorekeeper uses: Flask-WTF carries no py.typed
# marker and no stub package exists. FlaskForm is the typed WTForms Form underneath.
from .csrf import CSRFProtect as CSRFProtect
from .form import FlaskForm as FlaskForm
