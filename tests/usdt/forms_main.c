/* forms_main.c - runs the probes of forms.S once. */
void forms(void);

int main(void)
{
	forms();
	return 0;
}
